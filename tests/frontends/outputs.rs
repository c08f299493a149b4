//! Where outputs go and how failures end: `-` for standard input and output, fifos, symbolic
//! links, read-only folders, file modes, closed pipes and failing streams. No test touches a
//! real device: failing streams are made from files opened read-only.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use predicates::prelude::*;

use crate::common::{checkers, manifest, BIN};

fn binary() -> PathBuf {
    PathBuf::from(BIN)
}

fn p03() -> PathBuf {
    manifest().join("puzzles/p03.txt")
}

fn p03_solution() -> Vec<u8> {
    fs::read(manifest().join("expected/p03.txt")).expect("expected/p03.txt")
}

/// Solves p03 quietly into `output`.
fn solve_p03(output: &Path) -> assert_cmd::assert::Assert {
    checkers()
        .arg("--inputfile")
        .arg(p03())
        .arg("--outputfile")
        .arg(output)
        .arg("-q")
        .assert()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn outputfile_dash_writes_the_solution_to_stdout() {
    checkers()
        .arg("--inputfile")
        .arg(p03())
        .args(["--outputfile", "-"])
        .assert()
        .success()
        .stdout(p03_solution())
        .stderr(predicate::str::contains("red wins after 7 plies"));
}

#[test]
fn inputfile_dash_reads_stdin_with_or_without_a_byte_order_mark() {
    let puzzle = fs::read(p03()).expect("puzzle");
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), &puzzle].concat();
    for input in [puzzle, with_bom] {
        checkers()
            .args(["--inputfile", "-", "--outputfile", "-", "-q"])
            .write_stdin(input)
            .assert()
            .success()
            .stdout(p03_solution());
    }
}

#[test]
fn a_bad_board_on_stdin_is_named_stdin() {
    checkers()
        .args(["--inputfile", "-", "--outputfile", "-"])
        .write_stdin("........\nxx\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("<stdin>:2:1: found 'x'"));
}

#[test]
fn verify_and_perft_read_stdin_too() {
    checkers()
        .args(["verify", "--inputfile"])
        .arg(p03())
        .args(["--solution", "-"])
        .write_stdin(p03_solution())
        .assert()
        .success()
        .stdout(predicate::str::contains("PASS"));
    checkers()
        .args(["perft", "1", "--inputfile", "-"])
        .write_stdin(fs::read(p03()).expect("puzzle"))
        .assert()
        .success();
    checkers()
        .args(["verify", "--inputfile", "-", "--solution", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("only one of"));
}

/// A failed write names the path the user gave, says the reason once, and never names the
/// temporary file.
#[test]
fn write_errors_name_the_users_path_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("no-such-folder").join("out.txt");
    let assert = solve_p03(&out).code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains("no-such-folder/out.txt: cannot write the output: "),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("No such file or directory").count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains(".checkers-"), "{stderr}");
    solve_p03(dir.path())
        .code(1)
        .stderr(predicate::str::contains("is a directory"));
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

/// A name as long as a file name may be (255 bytes) is written like any other.
#[test]
fn a_longest_file_name_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("x".repeat(251) + ".txt");
    solve_p03(&out).success();
    assert_eq!(fs::read(&out).expect("out"), p03_solution());
    assert_eq!(names(dir.path()).len(), 1);
}

#[test]
fn input_errors_say_the_reason_once() {
    let assert = checkers()
        .args(["--inputfile", "/no/such/puzzle.txt", "--outputfile", "-"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert_eq!(
        stderr.matches("No such file or directory").count(),
        1,
        "{stderr}"
    );
}

#[cfg(unix)]
mod unix {
    use super::*;
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
    }

    /// Runs the solver on p03 under `umask`, through `sh` (setting the umask of a child needs
    /// no unsafe code that way).
    fn solve_under_umask(umask: &str, output: &Path) {
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "umask {umask} && exec \"$0\" --inputfile \"$1\" --outputfile \"$2\" -q"
            ))
            .arg(binary())
            .arg(p03())
            .arg(output)
            .status()
            .expect("sh runs");
        assert!(status.success());
    }

    #[test]
    fn a_new_file_gets_the_umasks_mode() {
        let dir = tempfile::tempdir().expect("temp dir");
        let a = dir.path().join("a.txt");
        solve_under_umask("022", &a);
        assert_eq!(mode(&a), 0o644);
        let b = dir.path().join("b.txt");
        solve_under_umask("077", &b);
        assert_eq!(mode(&b), 0o600);
        assert_eq!(fs::read(&a).expect("a"), p03_solution());
        assert_eq!(names(dir.path()), ["a.txt", "b.txt"]);
    }

    #[test]
    fn an_existing_file_keeps_its_mode() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("out.txt");
        for wanted in [0o640, 0o604, 0o755] {
            fs::write(&out, "old\n").expect("write");
            fs::set_permissions(&out, fs::Permissions::from_mode(wanted)).expect("chmod");
            solve_under_umask("077", &out);
            assert_eq!(mode(&out), wanted);
            assert_eq!(fs::read(&out).expect("out"), p03_solution());
        }
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    /// A symbolic link stays a link; its target gets the solution (created when missing,
    /// relative links resolved from the link's folder).
    #[test]
    fn a_symbolic_link_is_followed_and_its_target_replaced() {
        let dir = tempfile::tempdir().expect("temp dir");
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).expect("mkdir");
        let target = sub.join("target.txt");
        fs::write(&target, "old\n").expect("write");
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).expect("chmod");
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("sub/target.txt", &link).expect("symlink");
        let chained = dir.path().join("chained.txt");
        std::os::unix::fs::symlink("link.txt", &chained).expect("symlink");
        solve_p03(&chained).success();
        assert!(fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink());
        assert!(fs::symlink_metadata(&chained)
            .expect("link")
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&target).expect("target"), p03_solution());
        assert_eq!(mode(&target), 0o640);
        assert_eq!(names(&sub), ["target.txt"]);

        let dangling = dir.path().join("dangling.txt");
        std::os::unix::fs::symlink("sub/new.txt", &dangling).expect("symlink");
        solve_p03(&dangling).success();
        assert!(fs::symlink_metadata(&dangling)
            .expect("link")
            .file_type()
            .is_symlink());
        assert_eq!(
            fs::read(sub.join("new.txt")).expect("created"),
            p03_solution()
        );
    }

    fn mkfifo(path: &Path) {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
    }

    /// A fifo is written directly: its reader gets the solution, it stays a fifo, and no file
    /// is made beside it.
    #[test]
    fn a_fifo_is_written_directly() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("pipe");
        mkfifo(&fifo);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                fs::File::open(&fifo)
                    .expect("open fifo")
                    .read_to_end(&mut bytes)
                    .expect("read fifo");
                bytes
            })
        };
        solve_p03(&fifo).success();
        assert_eq!(reader.join().expect("reader"), p03_solution());
        assert!(fs::metadata(&fifo).expect("fifo").file_type().is_fifo());
        assert_eq!(names(dir.path()), ["pipe"]);
    }

    /// A fifo whose reader leaves without reading ends the run quietly, like a closed pipe.
    #[test]
    fn a_fifo_closed_by_its_reader_ends_quietly() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("pipe");
        mkfifo(&fifo);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || drop(fs::File::open(&fifo).expect("open fifo")))
        };
        // The solution is far smaller than a pipe's buffer, so the write may also succeed
        // before the reader closes: both end with exit 0 and nothing on stderr.
        solve_p03(&fifo).success().stderr("");
        reader.join().expect("reader");
    }

    /// An existing file in a folder where no file can be created is rewritten in place, with
    /// its mode. (Run as root, the folder's mode does not bind, and the file is replaced the
    /// usual way; the result is the same.)
    #[test]
    fn a_file_in_a_read_only_folder_is_updated() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path().join("ro");
        fs::create_dir(&folder).expect("mkdir");
        let out = folder.join("out.txt");
        fs::write(&out, "old\n").expect("write");
        fs::set_permissions(&out, fs::Permissions::from_mode(0o664)).expect("chmod");
        fs::set_permissions(&folder, fs::Permissions::from_mode(0o555)).expect("chmod");
        let result = solve_p03(&out);
        let new = folder.join("new.txt");
        let creates = solve_p03(&new);
        fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).expect("chmod back");
        result.success();
        assert_eq!(fs::read(&out).expect("out"), p03_solution());
        assert_eq!(mode(&out), 0o664);
        let root = new.exists();
        if root {
            creates.success();
            assert_eq!(names(&folder), ["new.txt", "out.txt"]);
        } else {
            creates
                .code(1)
                .stderr(predicate::str::contains("new.txt: cannot write the output"));
            assert_eq!(names(&folder), ["out.txt"]);
        }
    }

    /// Spawns the binary with `args` and its standard output a pipe whose reader is closed at
    /// once; returns the exit code and standard error.
    fn run_into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
        let mut child = std::process::Command::new(binary())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawns");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("waits");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// A closed pipe (`checkers ... | head -0`) ends the run quietly with exit 0, never 134.
    #[test]
    fn a_closed_pipe_ends_quietly() {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in ["p01.txt", "p02.txt"] {
            fs::copy(manifest().join("puzzles").join(name), dir.path().join(name)).expect("copy");
        }
        let folder = dir.path().to_string_lossy().into_owned();
        let puzzle = p03().to_string_lossy().into_owned();
        let solution = manifest()
            .join("expected/p03.txt")
            .to_string_lossy()
            .into_owned();
        for args in [
            vec!["perft", "6"],
            vec!["perft", "4", "--divide"],
            vec!["bench", "--json", "--jobs", "1", &folder],
            vec!["bench", "--jobs", "1", &folder],
            vec!["--inputfile", &puzzle, "--outputfile", "-", "-q"],
            vec!["verify", "--inputfile", &puzzle, "--solution", &solution],
        ] {
            let (code, stderr) = run_into_closed_pipe(&args);
            assert_eq!(code, Some(0), "{args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
            assert!(!stderr.contains("error"), "{args:?}: {stderr}");
        }
    }

    /// Runs the binary with `args` through `sh`, with `redirect` applied and a file size limit
    /// of 0 blocks: any write to a regular file fails with "File too large" (a stand-in for a
    /// full disk; the limit's signal is ignored so that the write returns the error). Returns
    /// the exit code, standard output and standard error of the run.
    fn run_with_full_files(args: &[&str], redirect: &str) -> (Option<i32>, String, String) {
        let script = format!("trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\" {redirect}");
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(binary())
            .args(args)
            .output()
            .expect("sh runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Standard output failing otherwise than by a closed pipe: exit 1 with a message;
    /// standard error failing: exit 1 without one. Never 134.
    #[test]
    fn failing_streams_exit_1() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("stream.txt");
        let to_file = format!("> '{}'", file.display());
        let (code, _, stderr) = run_with_full_files(&["perft", "3"], &to_file);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains("cannot write to standard output"),
            "{stderr}"
        );

        let errors_to_file = format!("2> '{}'", file.display());
        let (code, stdout, _) = run_with_full_files(&["perft", "3"], &errors_to_file);
        assert_eq!(code, Some(1));
        assert_eq!(stdout, "302\n");
        let puzzle = p03().to_string_lossy().into_owned();
        let (code, stdout, _) = run_with_full_files(
            &["--inputfile", &puzzle, "--outputfile", "-"],
            &errors_to_file,
        );
        assert_eq!(code, Some(1));
        assert_eq!(stdout.as_bytes(), p03_solution());

        // The output file itself failing: a message naming it, exit 1.
        let out = dir.path().join("out.txt");
        let (code, _, stderr) = run_with_full_files(
            &[
                "--inputfile",
                &puzzle,
                "--outputfile",
                &out.to_string_lossy(),
            ],
            "",
        );
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains("out.txt: cannot write the output: "),
            "{stderr}"
        );
        assert!(!out.exists());
        assert_eq!(names(dir.path()), ["stream.txt"], "no temporary file left");
    }
}
