//! Paths into a JSON value, as the parser's patches name them.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use compact_str::CompactString;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One step of a path into a JSON value: an object key or an array index.
///
/// Serialised untagged, so a path reads like `["files", 0, "content"]`. Keys are stored inline
/// up to 24 bytes, so cloning the path of a typical tool argument allocates nothing.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PathSegment {
    /// An index into an array.
    Index(usize),
    /// A key of an object.
    Key(CompactString),
}

/// A path from the root of the document; empty for the root itself.
///
/// Cheap to clone, so the many `Append` patches of one long string do not copy it: a path of one
/// segment (a tool argument such as `content`) is held inline, a deeper one is shared. Neither
/// clone takes an atomic reference count for the common one-segment case, which matters because
/// every streamed fragment of a string reports its path.
/// Serialised as a plain array of segments.
#[derive(Default)]
pub struct JsonPath(Repr);

impl Clone for JsonPath {
    // Inlined: every streamed fragment of a string clones its path into a patch.
    #[inline]
    fn clone(&self) -> Self {
        Self(match &self.0 {
            Repr::Root => Repr::Root,
            Repr::One(segment) => Repr::One(segment.clone()),
            Repr::Many(segments) => Repr::Many(Arc::clone(segments)),
        })
    }
}

#[derive(Default)]
enum Repr {
    #[default]
    Root,
    One(PathSegment),
    Many(Arc<[PathSegment]>),
}

impl Deref for JsonPath {
    type Target = [PathSegment];

    fn deref(&self) -> &[PathSegment] {
        match &self.0 {
            Repr::Root => &[],
            Repr::One(segment) => std::slice::from_ref(segment),
            Repr::Many(segments) => segments,
        }
    }
}

impl PartialEq for JsonPath {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for JsonPath {}

impl Hash for JsonPath {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl fmt::Debug for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<PathSegment>> for JsonPath {
    fn from(mut segments: Vec<PathSegment>) -> Self {
        Self(match segments.len() {
            0 => Repr::Root,
            1 => match segments.pop() {
                Some(segment) => Repr::One(segment),
                None => Repr::Root,
            },
            _ => Repr::Many(segments.into()),
        })
    }
}

impl FromIterator<PathSegment> for JsonPath {
    fn from_iter<I: IntoIterator<Item = PathSegment>>(iter: I) -> Self {
        Self::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl Serialize for JsonPath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
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

    #[test]
    fn every_depth_reads_back_as_its_segments() {
        let segments = [
            PathSegment::Key("a key longer than twenty-four bytes".into()),
            PathSegment::Index(0),
            PathSegment::Key("b".into()),
        ];
        for depth in 0..=segments.len() {
            let path: JsonPath = segments[..depth].iter().cloned().collect();
            assert_eq!(&*path, &segments[..depth]);
            assert_eq!(path.clone(), path);
            let text = serde_json::to_string(&path).unwrap();
            assert_eq!(serde_json::from_str::<JsonPath>(&text).unwrap(), path);
        }
        let one: JsonPath = vec![PathSegment::Index(1)].into();
        let other: JsonPath = vec![PathSegment::Index(2)].into();
        assert_ne!(one, other);
        assert_eq!(format!("{one:?}"), "[Index(1)]");
    }
}
