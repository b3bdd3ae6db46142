//! Putting the workspace back to a checkpoint: every file that differs from it is written (with
//! its executable bit), removed, or made a symlink again; directories left empty by a removal
//! go too. Files the checkpoints do not record (ignored, too large) are not touched.

use std::path::Path;

use super::changes::Change;
use super::error::CheckpointError;
use super::file_facts;
use super::scan::Kind;
use super::shadow::blob;
use crate::os_path;

/// Makes the workspace at `root` match the `new` side of each change.
pub fn apply(
    repo: &gix::Repository,
    root: &Path,
    changes: &[Change],
) -> Result<(), CheckpointError> {
    for change in changes {
        let path = root.join(os_path::from_bytes(&change.path));
        match &change.new {
            None => remove(root, &path)?,
            Some(recorded) => {
                let bytes = blob(repo, recorded.oid)?;
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| CheckpointError::io(parent, e))?;
                }
                // A file, link or directory in the way goes first.
                if let Ok(meta) = std::fs::symlink_metadata(&path)
                    && (meta.is_dir()
                        || meta.file_type().is_symlink()
                        || recorded.kind == Kind::Symlink)
                {
                    remove_any(&path)?;
                }
                match recorded.kind {
                    Kind::Symlink => {
                        file_facts::symlink(&os_path::from_bytes(&bytes), &path)
                            .map_err(|e| CheckpointError::io(&path, e))?;
                    }
                    kind => write_file(&path, &bytes, kind == Kind::Executable)?,
                }
            }
        }
    }
    Ok(())
}

/// Writes `bytes` through a temporary file and a rename, so a crash leaves old or new.
fn write_file(path: &Path, bytes: &[u8], executable: bool) -> Result<(), CheckpointError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(|e| CheckpointError::io(dir, e))?;
    std::io::Write::write_all(&mut temp, bytes).map_err(|e| CheckpointError::io(path, e))?;
    file_facts::set_executable(temp.path(), executable)
        .map_err(|e| CheckpointError::io(path, e))?;
    temp.persist(path)
        .map_err(|e| CheckpointError::io(path, e.error))?;
    Ok(())
}

fn remove_any(path: &Path) -> Result<(), CheckpointError> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| CheckpointError::io(path, e))?;
    let removed = match meta.is_dir() {
        true => std::fs::remove_dir_all(path),
        false => std::fs::remove_file(path),
    };
    removed.map_err(|e| CheckpointError::io(path, e))
}

/// Removes `path` and then the directories above it that became empty (not `root`).
fn remove(root: &Path, path: &Path) -> Result<(), CheckpointError> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => remove_any(path)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(CheckpointError::io(path, e)),
    }
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == root || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
    Ok(())
}
