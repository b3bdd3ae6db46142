//! Keeps the three lists of the app's commands in step: the handlers `lib.rs` registers, the
//! commands `build.rs` gives permissions to, and the permissions the main window's capability
//! grants. A command missing from either of the last two is refused at run time ("… not
//! allowed"), which no compiler catches, so this test does.

use std::collections::BTreeSet;

const LIB: &str = include_str!("lib.rs");
const BUILD: &str = include_str!("../build.rs");
const CAPABILITY: &str = include_str!("../capabilities/main.json");

/// The command names inside `generate_handler![…]`, without their module paths.
fn registered() -> BTreeSet<String> {
    let start = LIB
        .find("generate_handler![")
        .map(|i| i + "generate_handler![".len());
    let body = start
        .and_then(|s| LIB[s..].find(']').map(|e| &LIB[s..s + e]))
        .unwrap_or_default();
    body.split(',')
        .filter_map(|path| path.trim().rsplit("::").next())
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The quoted names in `build.rs`'s `COMMANDS` list.
fn permitted() -> BTreeSet<String> {
    let start = BUILD.find("const COMMANDS").unwrap_or(0);
    let end = BUILD[start..].find("];").map_or(BUILD.len(), |e| start + e);
    BUILD[start..end]
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The app's own `allow-…` permissions in the capability, as command names.
fn granted() -> BTreeSet<String> {
    let json: serde_json::Value = serde_json::from_str(CAPABILITY).expect("capability is JSON");
    json["permissions"]
        .as_array()
        .expect("permissions list")
        .iter()
        .filter_map(|p| p.as_str()?.strip_prefix("allow-"))
        .map(|name| name.replace('-', "_"))
        .collect()
}

#[test]
fn every_registered_command_is_permitted_and_granted() {
    let registered = registered();
    assert!(
        registered.len() > 20,
        "read the handler list: {registered:?}"
    );
    assert_eq!(
        permitted(),
        registered,
        "build.rs COMMANDS vs generate_handler!"
    );
    assert_eq!(
        granted(),
        registered,
        "capabilities/main.json vs generate_handler!"
    );
}
