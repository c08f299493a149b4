//! The training pipeline's commands: `selfplay` resumes and shards into the same files,
//! `train` writes weights that `think` reads, and damaged weights are refused with the file named.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn checkers() -> Command {
    Command::cargo_bin("checkers").expect("binary is built")
}

fn selfplay(out: &Path, shard: &str) -> assert_cmd::assert::Assert {
    checkers()
        .args([
            "selfplay",
            "--games",
            "3",
            "--chunk-games",
            "1",
            "--seed",
            "4",
        ])
        .args([
            "--player",
            "engine:nodes=200,eval=hand",
            "--egdb-pieces",
            "0",
        ])
        .args(["--threads", "1", "--shard", shard, "--out"])
        .arg(out)
        .assert()
}

fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .expect("folder")
        .map(|e| {
            let p = e.expect("entry").path();
            let bytes = fs::read(&p).expect("file");
            (PathBuf::from(p.file_name().expect("name")), bytes)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn selfplay_shards_merge_resume_and_train() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (whole, parts) = (tmp.path().join("whole"), tmp.path().join("parts"));
    selfplay(&whole, "0/1").success();
    selfplay(&parts, "1/2").success();
    selfplay(&parts, "0/2").success();
    assert_eq!(files(&whole).len(), 3);
    assert_eq!(files(&whole), files(&parts));
    // A second run finds every chunk written and plays nothing.
    selfplay(&whole, "0/1")
        .success()
        .stdout(predicate::str::contains("0 games played"));
    let weights = tmp.path().join("w.ckw");
    checkers()
        .args(["train", "--epochs", "2", "--data"])
        .arg(&whole)
        .arg("--out")
        .arg(&weights)
        .assert()
        .success()
        .stderr(predicate::str::contains("epoch   2"));
    checkers()
        .args(["think", "--nodes", "500", "--weights"])
        .arg(&weights)
        .assert()
        .success();
}

#[test]
fn damaged_weights_are_refused_with_the_file_named() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/weights/trained.ckw");
    let mut bytes = fs::read(shipped).expect("shipped weights");
    bytes[1000] ^= 0x10;
    let bad = tmp.path().join("bad.ckw");
    fs::write(&bad, &bytes).expect("write");
    checkers()
        .args(["think", "--nodes", "100", "--weights"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.ckw").and(predicate::str::contains("checksum")));
    let spec = format!("engine:nodes=100,weights={}", bad.display());
    checkers()
        .args([
            "match",
            "--games",
            "2",
            "--player2",
            "random",
            "--player1",
            &spec,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("checksum"));
    // The solver refuses them too, and writes nothing.
    let out = tmp.path().join("out.txt");
    checkers()
        .args(["--inputfile", "puzzles/p01.txt", "--weights"])
        .arg(&bad)
        .arg("--outputfile")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.ckw").and(predicate::str::contains("checksum")));
    assert!(!out.exists());
    fs::write(&bad, b"CKEV").expect("write");
    checkers()
        .args(["think", "--weights"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("too short"));
}
