//! TypeScript bindings for the UI, generated from the Rust types with `ts-rs`.
//!
//! Each exported type has a file `ui/src/protocol/<Type>.ts`. Tests call
//! [`assert_bindings_current`]; it fails when a file is missing or differs from what the Rust type
//! generates, and rewrites the file instead when `UPDATE_BINDINGS=1` is set (`make bindings`).

use std::path::PathBuf;

use ts_rs::TS;

/// The directory the UI imports its protocol types from.
pub fn bindings_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/protocol")
}

/// Checks (or, with `UPDATE_BINDINGS=1`, writes) the generated TypeScript of `T`.
///
/// # Panics
/// When the committed file is out of date; this is meant to be called from tests.
#[allow(clippy::panic)]
pub fn assert_bindings_current<T: TS + 'static>() {
    let generated = match T::export_to_string() {
        Ok(text) => text,
        Err(e) => panic!("cannot generate TypeScript for {}: {e}", T::name()),
    };
    let file = bindings_dir().join(format!("{}.ts", T::ident()));
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        if let Err(e) = std::fs::write(&file, &generated) {
            panic!("cannot write {}: {e}", file.display());
        }
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date with the Rust type {}; run `make bindings` and commit the result",
        file.display(),
        T::name()
    );
}
