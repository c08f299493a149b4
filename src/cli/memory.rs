//! How much memory the machine can still give, to refuse a table that cannot fit before the
//! system is pushed into swapping or the out-of-memory killer.

/// Bytes of memory available to new allocations without swapping, where the system says
/// (`MemAvailable` of `/proc/meminfo` on Linux); `None` elsewhere or when it cannot be read.
pub fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text)
}

/// The `MemAvailable` line of a `/proc/meminfo` text, in bytes.
fn parse_meminfo(text: &str) -> Option<u64> {
    field_bytes(text, "MemAvailable:")
}

/// The value of the line starting with `name` in a `/proc` text of `name value kB` lines.
fn field_bytes(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

/// Bytes of memory this process holds now (`VmRSS` of `/proc/self/status` on Linux); `None`
/// elsewhere or when it cannot be read.
pub fn resident_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    field_bytes(&text, "VmRSS:")
}

/// The most memory this process has held at once (`VmHWM` of `/proc/self/status` on Linux);
/// `None` elsewhere or when it cannot be read.
pub fn peak_resident_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    field_bytes(&text, "VmHWM:")
}

/// What a long command used, for its last line: `, C s of CPU, peak R MB resident` with the
/// parts the platform can tell (empty when neither), the CPU time counted from `cpu_start`.
pub fn usage_since(cpu_start: Option<cpu_time::ProcessTime>) -> String {
    let mut text = String::new();
    if let Some(cpu) = cpu_start.and_then(|c| c.try_elapsed().ok()) {
        text.push_str(&format!(", {:.1} s of CPU", cpu.as_secs_f64()));
    }
    if let Some(peak) = peak_resident_bytes() {
        text.push_str(&format!(", peak {:.0} MB resident", peak as f64 / 1e6));
    }
    text
}

/// `bytes` in MiB, for messages.
pub fn mib(bytes: u64) -> u64 {
    bytes >> 20
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_available_line() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(parse_meminfo(text), Some(2 << 20));
        assert_eq!(parse_meminfo("MemTotal: 1 kB\n"), None);
        assert_eq!(parse_meminfo("MemAvailable: lots kB\n"), None);
        assert_eq!(
            field_bytes("VmPeak: 9 kB\nVmRSS:  3 kB\n", "VmRSS:"),
            Some(3 << 10)
        );
    }
}
