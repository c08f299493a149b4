//! Running an agent's command as a child process under a CPU-time limit, and measuring the CPU
//! time it used as the operating system counts it (user + system, the child and every
//! descendant it waited for), as `time` would report it.
//!
//! The command runs as `sh -c COMMAND` in the agent's folder, in a process group of its own,
//! with standard input empty and standard output and error appended to `agent.log` there. While
//! it runs, a watchdog samples the CPU time of the process tree from `/proc` (10 ms ticks) and
//! kills the whole group once it is past the limit, or once a generous wall-clock limit passes
//! (an agent blocked on input uses no CPU). The time charged is exact: the difference of
//! `getrusage(RUSAGE_CHILDREN)` around reaping the child, which a process-wide lock keeps to one
//! child at a time, so agents may run on several threads at once. (When the group is killed, a
//! descendant the shell had not reaped is not in that figure; the last sample, never smaller,
//! is charged instead.)

use std::fs::File;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::resource::{getrusage, UsageWho};
use nix::sys::signal::{killpg, Signal};
use nix::sys::time::TimeVal;
use nix::sys::wait::{waitid, waitpid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use thiserror::Error;

/// File in the agent's folder that collects its standard output and error.
pub const LOG_FILE: &str = "agent.log";

/// Kernel clock ticks per second in `/proc/PID/stat` (`USER_HZ`, 100 on Linux).
const TICKS_PER_SECOND: u64 = 100;
/// Slack given to the sampled CPU time before a kill, for the sampling's 10 ms ticks (the
/// verdict itself uses the exact figure).
const SAMPLE_SLACK: Duration = Duration::from_millis(20);
/// Longest pause between two samples.
const MAX_POLL: Duration = Duration::from_millis(10);

/// Serialises the reaping of children, so each `RUSAGE_CHILDREN` difference is one child's.
static REAP: Mutex<()> = Mutex::new(());

/// The limits a run is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// CPU time (user + system, the whole process tree).
    pub cpu: Duration,
    /// Wall-clock time: a bound for agents that hang without using CPU.
    pub wall: Duration,
}

impl RunLimits {
    /// `cpu` of CPU time, and a generous but bounded wall time, for a loaded machine where a
    /// process gets a fraction of a core: four times the CPU time plus 30 s.
    #[must_use]
    pub fn for_cpu(cpu: Duration) -> RunLimits {
        RunLimits {
            cpu,
            wall: cpu
                .saturating_mul(4)
                .saturating_add(Duration::from_secs(30)),
        }
    }
}

/// Why the watchdog killed a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Killed {
    /// It went over its CPU time.
    CpuTime,
    /// It went over its wall-clock bound.
    WallTime,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it (its number).
    Signal(i32),
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// CPU time used (user + system, the child and the descendants it waited for).
    pub cpu: Duration,
    /// Wall-clock time from start to exit.
    pub wall: Duration,
    /// How it ended.
    pub exit: Exit,
    /// Whether the watchdog killed it, and why.
    pub killed: Option<Killed>,
}

/// Why a command could not be run.
#[derive(Debug, Error)]
pub enum RunError {
    /// The shell could not be started, or the log not opened.
    #[error("cannot start `{command}` in {dir}: {reason}")]
    Spawn {
        /// The command.
        command: String,
        /// Its folder.
        dir: PathBuf,
        /// The operating system's reason.
        reason: io::Error,
    },
    /// Waiting for the child failed.
    #[error("waiting for `{command}` failed: {reason}")]
    Wait {
        /// The command.
        command: String,
        /// The system's reason.
        reason: Errno,
    },
}

/// Runs `sh -c command` in `dir` under `limits` (see the module documentation).
pub fn run(command: &str, dir: &Path, limits: RunLimits) -> Result<RunOutcome, RunError> {
    let spawn_err = |reason| RunError::Spawn {
        command: command.to_owned(),
        dir: dir.to_path_buf(),
        reason,
    };
    let log = File::options()
        .create(true)
        .append(true)
        .open(dir.join(LOG_FILE))
        .map_err(spawn_err)?;
    let log2 = log.try_clone().map_err(spawn_err)?;
    let child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log2)
        .process_group(0)
        .spawn()
        .map_err(spawn_err)?;
    let start = Instant::now();
    let Ok(raw) = i32::try_from(child.id()) else {
        return Err(spawn_err(io::Error::other("process id out of range")));
    };
    let pid = Pid::from_raw(raw);
    let wait_err = |reason| RunError::Wait {
        command: command.to_owned(),
        reason,
    };

    let mut killed = None;
    let mut sampled = Duration::ZERO;
    let mut pause = Duration::from_micros(500);
    loop {
        // Has it exited? (Not reaped yet: WNOWAIT.)
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT | WaitPidFlag::WNOHANG;
        match waitid(Id::Pid(pid), flags) {
            Ok(WaitStatus::StillAlive) => {}
            Ok(_) => break,
            Err(Errno::EINTR) => continue,
            Err(e) => return Err(wait_err(e)),
        }
        if killed.is_none() {
            if let Some(cpu) = tree_cpu(pid) {
                sampled = sampled.max(cpu);
            }
            let over_cpu = sampled > limits.cpu + SAMPLE_SLACK;
            let over_wall = start.elapsed() > limits.wall;
            if over_cpu || over_wall {
                killed = Some(if over_cpu {
                    Killed::CpuTime
                } else {
                    Killed::WallTime
                });
                let _ = killpg(pid, Signal::SIGKILL);
            }
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(MAX_POLL);
    }
    let wall = start.elapsed();
    // Whatever the agent left running in its group goes too.
    let _ = killpg(pid, Signal::SIGKILL);

    let (status, cpu) = {
        let _guard = REAP
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let before = children_cpu();
        let status = loop {
            match waitpid(pid, None) {
                Err(Errno::EINTR) => continue,
                other => break other.map_err(wait_err)?,
            }
        };
        (status, children_cpu().saturating_sub(before))
    };
    // A descendant killed with the group is reaped by init, not through the shell, so its time
    // never reaches RUSAGE_CHILDREN: the last sample stands in for it.
    let cpu = cpu.max(sampled);
    drop(child);
    let exit = match status {
        WaitStatus::Exited(_, code) => Exit::Code(code),
        WaitStatus::Signaled(_, sig, _) => Exit::Signal(sig as i32),
        _ => Exit::Signal(0),
    };
    Ok(RunOutcome {
        cpu,
        wall,
        exit,
        killed,
    })
}

/// CPU time of this process's waited-for children so far.
fn children_cpu() -> Duration {
    let as_duration = |t: TimeVal| {
        Duration::from_secs(t.tv_sec().max(0) as u64)
            + Duration::from_micros(t.tv_usec().max(0) as u64)
    };
    getrusage(UsageWho::RUSAGE_CHILDREN)
        .map(|u| as_duration(u.user_time()) + as_duration(u.system_time()))
        .unwrap_or(Duration::ZERO)
}

/// CPU time of the process tree under `pid` from `/proc` (its own time, its waited-for
/// children's, and its running descendants'), in 10 ms ticks; `None` without `/proc`.
fn tree_cpu(pid: Pid) -> Option<Duration> {
    let mut ticks = 0u64;
    let mut stack = vec![pid.as_raw()];
    let mut seen = 0;
    while let Some(p) = stack.pop() {
        seen += 1;
        if seen > 4096 {
            break;
        }
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
            if p == pid.as_raw() {
                return None;
            }
            continue;
        };
        // Fields after the command name in parentheses: state is field 3; utime, stime,
        // cutime, cstime are fields 14-17.
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let fields: Vec<&str> = rest.split_whitespace().collect();
        ticks += fields
            .get(11..15)
            .into_iter()
            .flatten()
            .filter_map(|f| f.parse::<u64>().ok())
            .sum::<u64>();
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) {
            for task in tasks.flatten() {
                if let Ok(list) = std::fs::read_to_string(task.path().join("children")) {
                    stack.extend(
                        list.split_whitespace()
                            .filter_map(|c| c.parse::<i32>().ok()),
                    );
                }
            }
        }
    }
    Some(Duration::from_millis(ticks * 1000 / TICKS_PER_SECOND))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_cpu_and_kills_loops() {
        let dir = tempfile::tempdir().unwrap();
        let quick = run(
            "exit 3",
            dir.path(),
            RunLimits::for_cpu(Duration::from_secs(1)),
        )
        .unwrap();
        assert_eq!(quick.exit, Exit::Code(3));
        assert_eq!(quick.killed, None);
        let spin = run(
            "while :; do :; done",
            dir.path(),
            RunLimits::for_cpu(Duration::from_millis(100)),
        )
        .unwrap();
        assert_eq!(spin.killed, Some(Killed::CpuTime));
        assert!(spin.cpu >= Duration::from_millis(100), "{:?}", spin.cpu);
        let sleeper = run(
            "sleep 5",
            dir.path(),
            RunLimits {
                cpu: Duration::from_secs(1),
                wall: Duration::from_millis(200),
            },
        )
        .unwrap();
        assert_eq!(sleeper.killed, Some(Killed::WallTime));
        assert!(matches!(sleeper.exit, Exit::Signal(_)));
    }
}
