//! The race of the backward pass's questions: df-pn ([`dfpn`](super::dfpn)) on a second thread
//! beside the alpha-beta proof on this one, in the lockstep of [`lockstep`](super::lockstep), so
//! that the answer and both tables do not depend on the threads' timing.

use crate::rules::moves::Move;
use crate::rules::position::Position;

use super::dfpn::Answer;
use super::lockstep::Runner;
use super::searcher::PuzzleSearcher;
use crate::search::knobs::DFPN_NODE_WEIGHT;

impl PuzzleSearcher {
    /// Whether the side to move in `pos` wins within `n` plies through one of `order` (`n`
    /// odd), or loses within `n` whatever move of `order` it plays (`n` even): df-pn on a
    /// second thread beside the alpha-beta proof on this one, each with all the nodes the
    /// question has left (df-pn's charged [`DFPN_NODE_WEIGHT`] each), raced as
    /// `proof_race` describes, so that the answer and both tables do not depend on the
    /// threads' timing. df-pn's answer when it settles the question, else the proof's (`None`
    /// when the limits stopped it). The nodes searched beside each other count once in the
    /// question's limit and in the game's budget (`SearchStats::wall_nodes`).
    pub(super) fn race_bound(
        &mut self,
        pos: &Position,
        order: &mut [Move],
        n: u32,
    ) -> Option<bool> {
        let left = self.turn.stop_at.saturating_sub(self.stats.nodes);
        let limit = left / DFPN_NODE_WEIGHT;
        if n == 0 || limit == 0 || self.turn.aborted {
            return self.alphabeta_bound(pos, order, n);
        }
        let children: Vec<Position> = order.iter().map(|&m| pos.play(m)).collect();
        let mut dfpn = self.helpers.dfpn.take().unwrap_or_default();
        dfpn.deadline = self.turn.limits.deadline;
        dfpn.stop = self.turn.stop.clone();
        let before = dfpn.nodes;
        let start = self.stats.nodes;
        let [ours, theirs] = Runner::pair([start, before], [1, DFPN_NODE_WEIGHT]);
        dfpn.race = Some(theirs);
        self.helpers.runner = Some(ours);
        let endgame = std::sync::Arc::clone(&self.endgame.db);
        let mut proof_order = order.to_vec();
        let (proof, raced) = std::thread::scope(|s| {
            // A thread the system cannot start leaves the question to the proof: the closure
            // is dropped with df-pn's side of the race, which then reports itself finished.
            let helper = std::thread::Builder::new().spawn_scoped(s, move || {
                let (answer, decider) =
                    dfpn.ask(&children, n - 1, n % 2 == 0, limit, Some(&endgame));
                if let Some(mut runner) = dfpn.race.take() {
                    runner.finish(answer != Answer::Unknown);
                }
                (answer, decider, dfpn)
            });
            let proof = self.alphabeta_bound(pos, &mut proof_order, n);
            if let Some(mut runner) = self.helpers.runner.take() {
                runner.finish(proof.is_some());
            }
            let raced = helper.ok().map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            (proof, raced)
        });
        let (answer, decider) = match raced {
            Some((answer, decider, dfpn)) => {
                let ours = self.stats.nodes - start;
                let theirs = (dfpn.nodes - before) * DFPN_NODE_WEIGHT;
                self.helpers.dfpn = Some(dfpn);
                self.stats.nodes += theirs;
                self.stats.parallel_nodes += ours.min(theirs);
                self.turn.stop_at = self.turn.stop_at.saturating_add(ours.min(theirs));
                (answer, decider)
            }
            None => (Answer::Unknown, None),
        };
        if answer == Answer::Unknown {
            if proof.is_some() {
                order.copy_from_slice(&proof_order);
            }
            return proof;
        }
        // The proof stopped at a checkpoint after df-pn's answer, not at its limits.
        self.turn.aborted = false;
        if let Some(i) = decider {
            order[..=i].rotate_right(1);
        }
        Some(answer == Answer::Proven)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::board_text::parse_solution;
    use crate::rules::movegen;
    use crate::search::knobs::CHECKPOINT;
    use crate::search::puzzle::dfpn::Dfpn;

    /// A question raced (df-pn beside the alpha-beta proof, `proof_race`) gets
    /// the same answer, move order and node counts every time, whatever the threads' timing,
    /// and the answer the alpha-beta proof alone gives.
    #[test]
    fn a_raced_question_is_answered_the_same_every_time() {
        let text = std::fs::read("tests/data/issue23/right.txt").expect("board file");
        let pos = crate::formats::board_text::parse_board(&text).expect("board");
        let ask = |race: bool, n: u32| {
            let mut searcher = PuzzleSearcher::new(16);
            searcher.helpers.race_dfpn = race;
            let mut order = movegen::sorted_legal_moves(&pos).to_vec();
            searcher.begin_turn(Some(3_000_000));
            let answer = searcher.bound_holds(&pos, &mut order, n);
            let stats = searcher.stats();
            (answer, order, stats.nodes, stats.wall_nodes())
        };
        let mut settled = 0;
        // Red's loss within 16 (no: alpha-beta answers, df-pn stops at its next checkpoint)
        // and within 26 (yes: df-pn answers first).
        for n in [16, 26] {
            let raced = ask(true, n);
            assert!(raced.2 > 4 * CHECKPOINT, "{n}: {raced:?}");
            for _ in 0..2 {
                assert_eq!(ask(true, n), raced, "{n}");
            }
            let alone = ask(false, n).0;
            if let (Some(a), Some(b)) = (raced.0, alone) {
                assert_eq!(a, b, "{n}");
                settled += 1;
            }
        }
        assert_eq!(settled, 2);
    }

    /// Asks df-pn and the alpha-beta proof one question of a solution's state:
    /// `DFPN_Q="FILE STATE N"` (win within N for odd N, the mover's loss within N for even;
    /// `N` may be a comma-separated list), within `DFPN_LIMIT` nodes. With `DFPN_AB` set, the
    /// alpha-beta proof alone too; with `DFPN_RACE`, the proof alone and raced against df-pn,
    /// with nodes, wall nodes and milliseconds.
    #[test]
    #[ignore = "experiment: prints node counts"]
    fn dfpn_question() {
        let Ok(q) = std::env::var("DFPN_Q") else {
            return;
        };
        let parts: Vec<&str> = q.split_whitespace().collect();
        let states = parse_solution(&std::fs::read(parts[0]).expect("file")).expect("solution");
        let k: usize = parts[1].parse().expect("state");
        let bounds: Vec<u32> = parts[2].split(',').map(|b| b.parse().expect("n")).collect();
        let limit: u64 = std::env::var("DFPN_LIMIT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(30_000_000);
        let pos = states[k];
        // The line's move is left out, as the backward pass does.
        let sorted: Vec<_> = movegen::sorted_legal_moves(&pos)
            .iter()
            .copied()
            .filter(|&m| states.get(k + 1) != Some(&pos.play(m)))
            .collect();
        let children: Vec<Position> = sorted.iter().map(|&m| pos.play(m)).collect();
        let mut dfpn = Dfpn::new();
        for &n in &bounds {
            let win = n % 2 == 1;
            let start = std::time::Instant::now();
            let before = dfpn.nodes;
            let a = dfpn.ask(&children, n - 1, !win, limit, None);
            println!(
                "n {n}: df-pn {a:?} {} nodes {} ms",
                dfpn.nodes - before,
                start.elapsed().as_millis()
            );
        }
        // The proof alone (`DFPN_AB` or `DFPN_RACE`), then raced against df-pn (`DFPN_RACE`).
        let raced = std::env::var_os("DFPN_RACE").is_some();
        let alone = raced || std::env::var_os("DFPN_AB").is_some();
        let modes = [(false, alone), (true, raced)];
        for race in modes.into_iter().filter(|m| m.1).map(|m| m.0) {
            let mut searcher = PuzzleSearcher::new(256);
            searcher.helpers.race_dfpn = race;
            let mut order: Vec<_> = sorted.clone();
            for &n in &bounds {
                searcher.begin_turn(Some(limit));
                let before = searcher.stats();
                let start = std::time::Instant::now();
                let b = searcher.bound_holds(&pos, &mut order, n);
                let after = searcher.stats();
                println!(
                    "n {n}: {} {b:?} {} nodes {} wall {} ms",
                    if race { "raced" } else { "alpha-beta" },
                    after.nodes - before.nodes,
                    after.wall_nodes() - before.wall_nodes(),
                    start.elapsed().as_millis()
                );
            }
        }
    }
}
