//! Project rules and the session context through the real engine and the scripted server:
//! what each request body carries, byte for byte where it matters.

use foreman_core::conversation::transcript::TranscriptItem;
use foreman_core::conversation::{load_transcript, open_session};
use foreman_core::protocol::ApprovalMode;
use foreman_core::store::Store;
use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::Value;

use super::common::*;

const API_RULES: &str = "Instructions from src/api/AGENTS.md (they apply to files under src/api/)";

/// The system prompt request `n` sent, as its JSON text.
fn system_of(h: &Harness, n: usize) -> String {
    let body = h.server.requests()[n].json();
    match h.wire {
        Wire::Anthropic => body["system"].to_string(),
        Wire::OpenAi => body["messages"][0].to_string(),
    }
}

/// The text of the system prompt request `n` sent.
fn system_text(h: &Harness, n: usize) -> String {
    let body = h.server.requests()[n].json();
    let text = match h.wire {
        Wire::Anthropic => &body["system"][0]["text"],
        Wire::OpenAi => &body["messages"][0]["content"],
    };
    text.as_str().unwrap_or_default().to_owned()
}

/// How many session-context notes the messages of request `n` hold.
fn context_notes(h: &Harness, n: usize) -> usize {
    let body = h.server.requests()[n].json();
    body["messages"]
        .to_string()
        .matches("[Session context] Written by Foreman")
        .count()
}

fn write(root: &std::path::Path, rel: &str, content: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

#[tokio::test]
async fn a_nested_agents_md_arrives_with_the_first_call_in_its_directory_only() {
    for wire in BOTH {
        let mut h = start_turns(
            wire,
            &[
                vec![read("r1", "src/api/x.rs")],
                vec![read("r2", "src/api/x.rs")],
                vec![text("Read it twice.")],
            ],
            |c| {
                c.approval_mode = ApprovalMode::Yolo;
                write(&c.workspace, "src/api/x.rs", "fn x() {}\n");
                write(
                    &c.workspace,
                    "src/api/AGENTS.md",
                    "Handlers return Result.\n",
                );
            },
        )
        .await;
        h.say("read src/api/x.rs twice");
        assert!(h.end().await.is_success());
        let (first, second, third) = (h.request_text(0), h.request_text(1), h.request_text(2));
        assert!(!first.contains(API_RULES), "{first}");
        // Right after the read's own output, in its result.
        let result = h.server.requests()[1].json();
        let results: Vec<String> = match wire {
            Wire::Anthropic => result["messages"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
                .filter(|b| b["type"] == "tool_result")
                .map(|b| b["content"].as_str().unwrap().to_owned())
                .collect(),
            Wire::OpenAi => result["messages"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["role"] == "tool")
                .map(|m| m["content"].as_str().unwrap().to_owned())
                .collect(),
        };
        assert_eq!(results.len(), 1);
        assert!(results[0].contains("fn x() {}"), "{}", results[0]);
        assert!(
            results[0].ends_with(&format!("\n\n{API_RULES}:\n\nHandlers return Result.\n")),
            "{:?}",
            results[0]
        );
        // Given once: the second read's result does not bring it again.
        assert_eq!(second.matches(API_RULES).count(), 1, "{second}");
        assert_eq!(third.matches(API_RULES).count(), 1, "{third}");
        // Never in the system prompt, which stays the same bytes.
        assert!(!system_text(&h, 2).contains("Handlers return Result"));
        assert_eq!(system_of(&h, 0), system_of(&h, 1));
        assert_eq!(system_of(&h, 1), system_of(&h, 2));
    }
}

#[tokio::test]
async fn the_roots_claude_md_and_the_users_file_are_in_the_system_prompt_by_name() {
    let config_dir = tempfile::tempdir().unwrap();
    let user = config_dir.path().join("AGENTS.md");
    std::fs::write(&user, "Answer briefly.").unwrap();
    let user_in_config = user.clone();
    let mut h = start_turns(
        Wire::Anthropic,
        &[vec![read("r1", "notes.txt")], vec![text("Done.")]],
        move |c| {
            c.approval_mode = ApprovalMode::Yolo;
            c.user_rules = Some(user_in_config);
            write(
                &c.workspace,
                "CLAUDE.md",
                "Run `make check` before you finish.\n",
            );
            write(
                &c.workspace,
                "GEMINI.md",
                "Not read: CLAUDE.md comes first.\n",
            );
        },
    )
    .await;
    h.say("read notes.txt");
    assert!(h.end().await.is_success());
    let system = system_text(&h, 0);
    let user_part = format!(
        "\n\nInstructions from {} (they apply to all of the user's workspaces; it is the user's \
         own file):\n\nAnswer briefly.\n",
        user.display()
    );
    let root_part = "\nInstructions from CLAUDE.md (there is no AGENTS.md there, so this file is \
                     read instead) (they apply to the whole workspace):\n\nRun `make check` \
                     before you finish.\n";
    assert!(
        system.ends_with(&format!("{user_part}{root_part}")),
        "{system}"
    );
    assert!(!system.contains("Not read"));
    assert_eq!(system_of(&h, 0), system_of(&h, 1));
}

#[tokio::test]
async fn an_agents_md_over_64_kib_is_cut_with_a_note() {
    let big = format!("{}THE END", "Keep functions short.\n".repeat(3_000));
    let size = big.len();
    assert!(size > 64 * 1024);
    let kept = big[..64 * 1024].to_owned();
    let mut h = start_turns(Wire::OpenAi, &[vec![text("Fine.")]], move |c| {
        write(&c.workspace, "AGENTS.md", &big);
    })
    .await;
    h.say("hello");
    assert!(h.end().await.is_success());
    let system = system_text(&h, 0);
    assert!(!system.contains("THE END"));
    assert!(system.contains(&format!(
        "(they apply to the whole workspace):\n\n{kept}\n[Cut"
    )));
    assert!(
        system.ends_with(&format!(
            "{}\n[Cut here: AGENTS.md is {size} bytes; only its first 64 KiB are given. Read \
             the file itself for the rest.]\n",
            &kept[kept.len() - 40..]
        )),
        "{}",
        &system[system.len() - 300..]
    );
}

#[tokio::test]
async fn the_session_context_comes_before_the_first_message_and_is_not_the_users() {
    let store = Store::open_in_memory().await.unwrap();
    let (id, history) = open_session(&store, "/w", None).await.unwrap().unwrap();
    let responses = [vec![text("Hi.")], vec![text("Again.")]]
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let (s, session) = (store.clone(), id.clone());
    let mut h = start_with(Wire::Anthropic, responses, move |c| {
        c.store = Some(s);
        c.session_id = Some(session);
        c.history = history;
    })
    .await;
    h.say("hello");
    assert!(h.end().await.is_success());
    h.say("and again");
    assert!(h.end().await.is_success());
    let first = h.server.requests()[0].json();
    let blocks: Vec<&Value> = first["messages"][0]["content"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(
        blocks.len(),
        2,
        "the note, then the user's message: {first}"
    );
    let note = blocks[0]["text"].as_str().unwrap();
    assert!(
        note.starts_with("[Session context] Written by Foreman when this session started"),
        "{note}"
    );
    assert!(note.contains("\n- Date: 20"), "{note}");
    assert!(note.contains("\n- Git: "), "{note}");
    assert_eq!(blocks[1]["text"], "hello");
    // Once per session: the second task's request has the same one note.
    assert_eq!(context_notes(&h, 1), 1);
    assert_eq!(system_of(&h, 0), system_of(&h, 1));
    // A reopened conversation shows the user's messages only, and the title is theirs.
    let transcript = load_transcript(&store, &id).await.unwrap();
    let users: Vec<&str> = transcript
        .items
        .iter()
        .filter_map(|item| match item {
            TranscriptItem::User { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(users, ["hello", "and again"]);
    assert_eq!(transcript.user_messages(), 2);
    assert_eq!(store.session(&id).await.unwrap().unwrap().title, "hello");
}

#[tokio::test]
async fn a_resumed_session_gets_no_second_context_note() {
    let store = Store::open_in_memory().await.unwrap();
    let (id, _) = open_session(&store, "/w", None).await.unwrap().unwrap();
    let mut h = start_stored(
        "test-model",
        &store,
        &id,
        vec![ScriptedResponse::sse(body(
            Wire::Anthropic,
            &[text("One.")],
        ))],
    )
    .await;
    h.say("first");
    assert!(h.end().await.is_success());
    drop(h);
    let mut h = start_stored(
        "test-model",
        &store,
        &id,
        vec![ScriptedResponse::sse(body(
            Wire::Anthropic,
            &[text("Two.")],
        ))],
    )
    .await;
    h.say("second");
    assert!(h.end().await.is_success());
    assert_eq!(context_notes(&h, 0), 1, "{}", h.request_text(0));
}
