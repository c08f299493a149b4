//! The backward pass's df-pn (`search::puzzle::dfpn`) against the independent analyser: on seeded
//! random boards whose exact value the analyser decides, every bound df-pn settles agrees with
//! that value.

use crate::common::decided_boards;
use checkers::analysis::{Oracle, OracleLimits, Value};
use checkers::search::puzzle::dfpn::{Answer, Dfpn};

#[test]
fn dfpn_bounds_agree_with_the_analyser() {
    let mut oracle = Oracle::new(OracleLimits::default());
    // One searcher for every question: its table, kept across them, must not mislead.
    let mut dfpn = Dfpn::new();
    let (mut settled, mut proven) = (0, 0);
    for (pos, value) in decided_boards(300, 23, 4, &mut oracle).collect::<Vec<_>>() {
        for n in 0..=15u32 {
            let expected = match value {
                Value::Win(w) => n % 2 == 1 && w <= n,
                Value::Loss(l) => n % 2 == 0 && l <= n,
                Value::Draw => false,
            };
            match dfpn.bound(&pos, n, 100_000) {
                Answer::Unknown => continue,
                answer => {
                    assert_eq!(
                        answer == Answer::Proven,
                        expected,
                        "{value:?}, bound {n}: {answer:?} for\n{pos:?}"
                    );
                    settled += 1;
                    proven += usize::from(expected);
                }
            }
        }
    }
    println!("{settled} settled, {proven} proven");
    assert!(
        settled > 800 && proven > 80,
        "{settled} settled, {proven} proven"
    );
}
