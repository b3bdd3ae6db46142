//! Approving some hunks of a change: only those are written, and what cannot be split is refused.

use foreman_core::protocol::{ApprovalMode, CallDecision, CallState, Op};

use super::common::*;

#[tokio::test]
async fn approve_hunks_writes_only_the_chosen_hunks_and_the_card_shows_them() {
    let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let proposed = old
        .replace("line 2\n", "line two\n")
        .replace("line 15\n", "line fifteen\n")
        .replace("line 28\n", "line twenty-eight\n");
    for wire in BOTH {
        let turns = vec![
            vec![read("r", "code.txt"), write("w1", "code.txt", &proposed)],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        std::fs::write(h.dir.path().join("code.txt"), &old).unwrap();
        h.say("go");
        let (id, hash) = h.approval().await;
        let approve = |hunks: Vec<u32>, preview_hash: &str| Op::ApproveHunks {
            call_id: id.clone(),
            preview_hash: preview_hash.to_owned(),
            hunks,
        };
        let none = h.refused(approve(vec![], &hash)).await;
        assert!(none.contains("no hunk was chosen"), "{none}");
        let missing = h.refused(approve(vec![0, 3], &hash)).await;
        assert!(missing.contains("no hunk 3"), "{missing}");
        // As many indices as hunks, one of them not a hunk: not a whole approval.
        let missing = h.refused(approve(vec![0, 1, 7], &hash)).await;
        assert!(missing.contains("no hunk 7"), "{missing}");
        let stale = h.refused(approve(vec![0], "stale")).await;
        assert!(stale.contains("preview changed"), "{stale}");
        assert_eq!(
            h.file("code.txt"),
            old,
            "nothing is written until a choice is made"
        );

        h.send(approve(vec![2, 0], &hash));
        assert!(h.end().await.is_success());
        let written = old
            .replace("line 2\n", "line two\n")
            .replace("line 28\n", "line twenty-eight\n");
        assert_eq!(h.file("code.txt"), written);
        let (state, result) = h.finished(&id).unwrap();
        assert_eq!(state, CallState::Succeeded);
        assert!(
            result.contains("hunks 1, 3 of 3 were written and the other 1 left out"),
            "{result}"
        );
        assert_eq!(
            h.decision(&id),
            Some(CallDecision::Parts {
                written: 2,
                total: 3
            })
        );
        let next = h.request_text(1);
        assert!(
            next.contains("-line fifteen") && next.contains("+line 15"),
            "the model sees what was left out: {next}"
        );
        // The card's diff is now what the file got: two hunks, not three.
        let shown = h.card_diff(&id).unwrap();
        assert_eq!((shown.hunks.len(), shown.added, shown.removed), (2, 2, 2));
        assert_eq!(shown.path, "code.txt");
        // And the change undoes to what the file had before.
        h.undo(&id).await.unwrap();
        assert_eq!(h.file("code.txt"), old);
    }
}

#[tokio::test]
async fn a_file_that_is_not_utf8_is_not_approved_in_part() {
    let mut old: Vec<u8> = (1..=30)
        .flat_map(|i| format!("line {i}\n").into_bytes())
        .collect();
    old.extend_from_slice(b"bytes \xff\xfe\n");
    let proposed: String = (1..=30)
        .map(|i| match i {
            2 => "line two\n".to_owned(),
            28 => "line twenty-eight\n".to_owned(),
            _ => format!("line {i}\n"),
        })
        .collect();
    let turns = vec![
        vec![read("r", "bin.txt"), write("w1", "bin.txt", &proposed)],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    std::fs::write(h.dir.path().join("bin.txt"), &old).unwrap();
    h.say("go");
    let (id, hash) = h.approval().await;
    let refused = h
        .refused(Op::ApproveHunks {
            call_id: id.clone(),
            preview_hash: hash,
            hunks: vec![0],
        })
        .await;
    assert!(refused.contains("not UTF-8"), "{refused}");
    assert_eq!(std::fs::read(h.dir.path().join("bin.txt")).unwrap(), old);
    h.send(Op::Reject {
        call_id: id,
        feedback: None,
    });
    assert!(h.end().await.is_success());
}

#[tokio::test]
async fn approving_every_hunk_is_a_plain_approval() {
    let old: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    let proposed = old
        .replace("line 1\n", "one\n")
        .replace("line 20\n", "twenty\n");
    let turns = vec![
        vec![read("r", "code.txt"), write("e1", "code.txt", &proposed)],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    std::fs::write(h.dir.path().join("code.txt"), &old).unwrap();
    h.say("go");
    let (id, hash) = h.approval().await;
    h.send(Op::ApproveHunks {
        call_id: id.clone(),
        preview_hash: hash,
        hunks: vec![1, 0, 1],
    });
    assert!(h.end().await.is_success());
    assert_eq!(h.file("code.txt"), proposed);
    let (_, result) = h.finished(&id).unwrap();
    assert!(!result.contains("part of your change"), "{result}");
}
