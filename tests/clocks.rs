//! Game clocks (issue 19). GTP: with `time_settings` and no `time_left` afterwards, oxello
//! counts its own clock down, so a whole game's thinking stays within the main time as the
//! controller measures it (from sending `genmove` to reading the reply). NBoard: the clock of
//! `set game` is counted down by our own `go` times even when the GUI sends our moves back
//! without them.

mod common;

use common::Engine;
use oxello::board::Position;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Held by each test here: a clock is promised for one engine a core, and three engines at once
/// on CI's two cores (with the harness's own threads) ran a 2 s game 15 ms over.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Reads one GTP reply (its lines up to the blank line); the first line.
fn reply(e: &mut Engine) -> String {
    let first = e.next().expect("a reply");
    loop {
        if e.next().expect("reply lines").is_empty() {
            return first;
        }
    }
}

fn ask(e: &mut Engine, cmd: &str) -> String {
    e.send(cmd).expect("send");
    let r = reply(e);
    assert!(r.starts_with('='), "{cmd}: {r}");
    r
}

fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

/// Plays a whole game: oxello as `ours` by `genmove`, the other side the first legal move by
/// `play`. Returns the controller-measured time of every genmove.
fn game(e: &mut Engine, ours: char) -> Vec<Duration> {
    ask(e, "clear_board");
    let mut pos = Position::start();
    let mut times = Vec::new();
    let mut colour = 'b';
    while !pos.board.is_game_over() {
        let moves = pos.board.moves();
        if colour == ours {
            e.send(&format!("genmove {colour}")).expect("send");
            let t0 = Instant::now();
            let r = reply(e);
            times.push(t0.elapsed());
            let mv = r.trim_start_matches('=').trim().to_string();
            pos = if mv == "pass" {
                pos.pass()
            } else {
                let sq = (0..64).find(|&s| square_name(s) == mv).expect("a square");
                pos.play(sq).expect("legal")
            };
        } else if moves == 0 {
            ask(e, &format!("play {colour} pass"));
            pos = pos.pass();
        } else {
            let sq = moves.trailing_zeros() as usize;
            ask(e, &format!("play {colour} {}", square_name(sq)));
            pos = pos.play(sq).expect("legal");
        }
        colour = if colour == 'b' { 'w' } else { 'b' };
    }
    times
}

#[test]
fn a_whole_game_stays_within_two_seconds_without_time_left() {
    let _alone = alone();
    // A level the clock, not the depth, limits; no book, so every move is searched.
    let args: Vec<String> = ["gtp", "--level", "30", "--no-book"].iter().map(|s| s.to_string()).collect();
    let mut e = Engine::start(&args).expect("engine starts");
    ask(&mut e, "time_settings 2 0 0");
    for ours in ['b', 'w'] {
        let times = game(&mut e, ours);
        let total: Duration = times.iter().sum();
        assert!(times.len() > 20, "{times:?}");
        assert!(total < Duration::from_secs(2), "{ours}: {total:?} over {} moves", times.len());
        // The clock was used, not left idle.
        assert!(total > Duration::from_millis(500), "{ours}: {total:?}");
    }
    e.close().expect("exits");
}

#[test]
fn time_left_is_the_controllers_figure() {
    let _alone = alone();
    let args: Vec<String> = ["gtp", "--level", "30", "--no-book"].iter().map(|s| s.to_string()).collect();
    let mut e = Engine::start(&args).expect("engine starts");
    ask(&mut e, "time_settings 600 0 0");
    // Ten minutes on the clock but 0.3 s left says the controller: the move is quick.
    ask(&mut e, "time_left b 0.3 0");
    let t0 = Instant::now();
    ask(&mut e, "genmove b");
    assert!(t0.elapsed() < Duration::from_millis(300), "{:?}", t0.elapsed());
    e.close().expect("exits");
}

#[test]
fn nboard_go_stays_within_the_ggf_clock_when_moves_come_back_without_times() {
    let _alone = alone();
    let args: Vec<String> = ["nboard", "--no-book"].iter().map(|s| s.to_string()).collect();
    let mut e = Engine::start(&args).expect("engine starts");
    e.send("nboard 2").expect("send");
    assert_eq!(e.next().as_deref(), Ok("set myname oxello"));
    e.send("set depth 30").expect("send");
    // Two seconds a side, no increment, no grace.
    e.send(
        "set game (;GM[Othello]PC[NBoard]TI[2//0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)",
    )
    .expect("send");
    let mut pos = Position::start();
    let mut total = Duration::ZERO;
    let mut moves = 0;
    let mut ping = 0;
    while !pos.board.is_game_over() {
        let black = pos.to_move == oxello::board::Color::Black;
        let mv = if black {
            ping += 1;
            e.send(&format!("ping {ping}")).expect("send");
            assert_eq!(e.next(), Ok(format!("pong {ping}")));
            e.send("go").expect("send");
            let t0 = Instant::now();
            let line = loop {
                let l = e.next().expect("output");
                if let Some(m) = l.strip_prefix("=== ") {
                    break m.to_string();
                }
            };
            total += t0.elapsed();
            moves += 1;
            line.split('/').next().unwrap_or("").to_lowercase()
        } else if pos.board.moves() == 0 {
            "pa".to_string()
        } else {
            square_name(pos.board.moves().trailing_zeros() as usize)
        };
        pos = if mv.starts_with("pa") {
            pos.pass()
        } else {
            let sq = (0..64).find(|&s| square_name(s) == mv).expect("a square");
            pos.play(sq).expect("legal")
        };
        // Protocol v1 style: the bare move, no eval and no time.
        e.send(&format!("move {mv}")).expect("send");
    }
    assert!(moves > 20, "{moves}");
    assert!(total < Duration::from_secs(2), "{total:?} over {moves} moves");
    e.close().expect("exits");
}
