//! Paths into a JSON value, as the parser's patches name them.

use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One step of a path into a JSON value: an object key or an array index.
///
/// Serialised untagged, so a path reads like `["files", 0, "content"]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PathSegment {
    /// An index into an array.
    Index(usize),
    /// A key of an object.
    Key(String),
}

/// A path from the root of the document; empty for the root itself.
///
/// Cheap to clone (shared), so the many `Append` patches of one long string do not copy it.
/// Serialised as a plain array of segments.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct JsonPath(Arc<[PathSegment]>);

impl Deref for JsonPath {
    type Target = [PathSegment];

    fn deref(&self) -> &[PathSegment] {
        &self.0
    }
}

impl From<Vec<PathSegment>> for JsonPath {
    fn from(segments: Vec<PathSegment>) -> Self {
        Self(segments.into())
    }
}

impl FromIterator<PathSegment> for JsonPath {
    fn from_iter<I: IntoIterator<Item = PathSegment>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

impl Serialize for JsonPath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.as_ref().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JsonPath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<PathSegment>::deserialize(deserializer).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_serialise_as_plain_arrays() {
        let path: JsonPath = vec![PathSegment::Key("a".into()), PathSegment::Index(3)].into();
        let text = serde_json::to_string(&path).unwrap();
        assert_eq!(text, r#"["a",3]"#);
        assert_eq!(serde_json::from_str::<JsonPath>(&text).unwrap(), path);
        assert!(JsonPath::default().is_empty());
    }
}
