//! The imports inside `src/search` run one way only: no module reaches, through its imports, a
//! module that reaches back to it.
//!
//! The graph is read from the sources at test time. Its nodes are the modules of `src/search`
//! (one a file); its edges are every `super::...` and `crate::search::...` path of a file's code
//! (comments and the `#[cfg(test)]` test module left out), each resolved to the module that defines
//! the name, through the `pub use` re-exports of a parent module. A parent's use of its own
//! children (`mod x; use x::Y;`) is containment, not an edge: the children may import their
//! parent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A module's path from the crate root, e.g. `["search", "puzzle", "proof"]`.
type ModPath = Vec<String>;

/// The names a module re-exports (`pub use`): (module, name) -> the module the path is read
/// from, and the path.
type Reexports = BTreeMap<(ModPath, String), (ModPath, Vec<String>)>;

/// Every module file under `dir`, with its module path (`prefix` for `dir` itself).
fn modules(dir: &Path, prefix: &ModPath, out: &mut BTreeMap<ModPath, PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/search is readable")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            let mut sub = prefix.clone();
            sub.push(stem.to_string());
            modules(&path, &sub, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut m = prefix.clone();
            if stem != "mod" {
                m.push(stem.to_string());
            }
            out.insert(m, path);
        }
    }
}

/// The code of a file: without comment lines, and without its test module (from a
/// `#[cfg(test)]` line followed by `mod ...` on).
fn code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim() == "#[cfg(test)]"
                && lines.get(i + 1).is_some_and(|l| l.starts_with("mod "))
        })
        .unwrap_or(lines.len());
    lines[..end]
        .iter()
        .filter(|l| !l.trim_start().starts_with("//"))
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths that start at each `start` in `code`, expanded over `{...}` groups: each a list of
/// segments (`super`, names), the group's items as the last segment.
fn paths(code: &str, start: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(i) = code[from..].find(start) {
        let at = from + i;
        from = at + start.len();
        // Only a path's beginning (not `super::super` found again inside a path).
        if at > 0
            && (bytes[at - 1].is_ascii_alphanumeric()
                || bytes[at - 1] == b'_'
                || bytes[at - 1] == b':')
        {
            continue;
        }
        let mut segs: Vec<String> = Vec::new();
        let mut rest = &code[at..];
        loop {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                break;
            }
            segs.push(name.clone());
            rest = &rest[name.len()..];
            if let Some(r) = rest.strip_prefix("::") {
                rest = r.trim_start();
                if let Some(group) = rest.strip_prefix('{') {
                    let end = group.find('}').unwrap_or(group.len());
                    for item in group[..end].split(',') {
                        let item: String = item
                            .trim()
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        if !item.is_empty() {
                            let mut p = segs.clone();
                            if item != "self" {
                                p.push(item);
                            }
                            found.push(p);
                        }
                    }
                    segs.clear();
                    break;
                }
            } else {
                break;
            }
        }
        if !segs.is_empty() {
            found.push(segs);
        }
    }
    found
}

/// The module `segs` (relative to `module`, or from the crate root) names, or `None` when it
/// lies outside `src/search`: the longest known prefix, followed through re-exports.
fn resolve(
    module: &ModPath,
    segs: &[String],
    known: &BTreeMap<ModPath, PathBuf>,
    reexports: &Reexports,
) -> Option<ModPath> {
    let mut abs: ModPath = module.clone();
    let mut rest = segs;
    if rest.first().is_some_and(|s| s == "crate") {
        abs.clear();
        rest = &rest[1..];
    } else if rest.first().is_some_and(|s| s == "self") {
        rest = &rest[1..];
    } else {
        // `super` is the parent of a module; a mod.rs is its folder's module already.
        while rest.first().is_some_and(|s| s == "super") {
            abs.pop()?;
            rest = &rest[1..];
        }
    }
    let mut at = abs;
    for seg in rest {
        let mut next = at.clone();
        next.push(seg.clone());
        if known.contains_key(&next) {
            at = next;
        } else if let Some((ctx, target)) = reexports.get(&(at.clone(), seg.clone())) {
            return resolve(ctx, target, known, reexports);
        } else {
            break;
        }
    }
    known.contains_key(&at).then_some(at)
}

/// The import graph of `src/search`: each module's edges.
fn graph() -> BTreeMap<ModPath, Vec<ModPath>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/search");
    let mut known = BTreeMap::new();
    modules(&root, &vec!["search".to_string()], &mut known);
    // Re-exports: `pub use child::{A, B}` of a module, name -> the path it names.
    let mut reexports = Reexports::new();
    let mut codes = BTreeMap::new();
    for (m, path) in &known {
        let text = code(&std::fs::read_to_string(path).expect("source is readable"));
        for line in text.lines().map(str::trim) {
            let Some(used) = line
                .strip_prefix("pub use ")
                .or_else(|| line.strip_prefix("pub(crate) use "))
            else {
                continue;
            };
            for p in paths(used, used.split("::").next().unwrap_or_default()) {
                let Some(name) = p.last() else {
                    continue;
                };
                // A child's name is read from the module itself (`child::A`).
                let segs = if p[0] == "super" || p[0] == "crate" {
                    p.clone()
                } else {
                    std::iter::once("self".to_string())
                        .chain(p.iter().cloned())
                        .collect()
                };
                reexports.insert((m.clone(), name.clone()), (m.clone(), segs));
            }
        }
        codes.insert(m.clone(), text);
    }
    let mut edges: BTreeMap<ModPath, Vec<ModPath>> = BTreeMap::new();
    for (m, text) in &codes {
        let mut to: Vec<ModPath> = paths(text, "super::")
            .into_iter()
            .chain(paths(text, "crate::search::"))
            .filter_map(|p| resolve(m, &p, &known, &reexports))
            // A module's own name, and its children through its own re-exports, are no edge.
            .filter(|t| t != m && !t.starts_with(m))
            .collect();
        to.sort();
        to.dedup();
        edges.insert(m.clone(), to);
    }
    edges
}

/// A cycle of `edges`, as the modules along it, if there is one.
fn cycle(edges: &BTreeMap<ModPath, Vec<ModPath>>) -> Option<Vec<ModPath>> {
    // 0: not seen, 1: on the current path, 2: done.
    fn visit(
        m: &ModPath,
        edges: &BTreeMap<ModPath, Vec<ModPath>>,
        state: &mut BTreeMap<ModPath, u8>,
        stack: &mut Vec<ModPath>,
    ) -> Option<Vec<ModPath>> {
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for t in edges.get(m).into_iter().flatten() {
            match state.get(t).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|s| s == t).unwrap_or(0);
                    let mut c = stack[from..].to_vec();
                    c.push(t.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(t, edges, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    let mut stack = Vec::new();
    for m in edges.keys() {
        if state.get(m).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(m, edges, &mut state, &mut stack) {
                return Some(c);
            }
        }
    }
    None
}

fn module(path: &str) -> ModPath {
    path.split("::").map(str::to_string).collect()
}

#[test]
fn the_search_imports_have_no_cycle() {
    let edges = graph();
    // The reader sees the imports it must: a file's own, through a group and a re-export.
    let from = |m: &str| edges.get(&module(m)).cloned().unwrap_or_default();
    assert!(from("search::puzzle::deepening").contains(&module("search::puzzle::searcher")));
    assert!(from("search::puzzle::backward_pass").contains(&module("search::puzzle::play_out")));
    assert!(from("search::endgame::reach").contains(&module("search::knobs")));
    assert!(from("search::game").contains(&module("search::endgame")));
    if let Some(c) = cycle(&edges) {
        let names: Vec<String> = c.iter().map(|m| m.join("::")).collect();
        panic!("import cycle in src/search: {}", names.join(" -> "));
    }
}

#[test]
fn a_cycle_is_found() {
    let code = "use super::b::X;\nfn f() { crate::search::c::g(); }";
    let found = paths(code, "super::");
    assert_eq!(
        found,
        vec![vec!["super".to_string(), "b".into(), "X".into()]]
    );
    let mut edges = BTreeMap::new();
    edges.insert(module("a"), vec![module("b")]);
    edges.insert(module("b"), vec![module("c")]);
    edges.insert(module("c"), vec![module("a")]);
    assert_eq!(
        cycle(&edges),
        Some(vec![module("a"), module("b"), module("c"), module("a")])
    );
    edges.insert(module("c"), vec![]);
    assert_eq!(cycle(&edges), None);
}
