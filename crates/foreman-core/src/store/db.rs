//! The database handle: opening (with migrations, WAL and a busy timeout), and moving a damaged
//! file aside.
//!
//! Opening holds an OS file lock (`flock`, beside the database: `foreman.db.lock`) from before
//! the file is created until its schema is up to date, so processes that start at once on an
//! empty data folder (the app and several `foreman-cli exec`, the first tasks of a script) take
//! turns: the first creates and migrates, the others find it done. SQLite's own locks do not
//! cover this: the migrator reads which migrations ran and applies each in its own transaction,
//! so two of them would both apply the first one. A process that dies releases its lock.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use super::error::StoreError;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The file name of the database inside the app's data directory.
pub const DATABASE_FILE: &str = "foreman.db";

/// How long opening waits for another process that is opening the same database.
const OPEN_WAIT: Duration = Duration::from_secs(60);

/// The lock that opening `path` holds: the file `<path>.lock`, once no other process holds it
/// (waiting up to [`OPEN_WAIT`]). Dropping it releases the lock.
async fn opening_lock(path: &Path) -> Result<File, StoreError> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let lock_path = PathBuf::from(name);
    let io = |source| StoreError::Io {
        path: lock_path.clone(),
        source,
    };
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .map_err(io)?;
    let started = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::WouldBlock) if started.elapsed() < OPEN_WAIT => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(TryLockError::WouldBlock) => {
                return Err(StoreError::Database {
                    path: path.to_path_buf(),
                    reason: format!(
                        "another Foreman has been opening it for {} s (it holds {}); quit it \
                         and try again",
                        OPEN_WAIT.as_secs(),
                        lock_path.display()
                    ),
                });
            }
            Err(TryLockError::Error(source)) => return Err(io(source)),
        }
    }
}

/// A handle on the database. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// A file that is not a SQLite database, or one whose schema is newer than this build knows,
    /// is reported as [`StoreError::Corrupt`] naming the file; it is never deleted or rewritten.
    /// Safe to race: other processes opening the same file wait their turn (see the module).
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::Io {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        let lock = opening_lock(path).await?;
        let opened = Self::open_locked(path).await;
        drop(lock);
        opened
    }

    /// [`Self::open`], holding the opening lock.
    async fn open_locked(path: &Path) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::from_str("sqlite://")
            .map_err(|e| StoreError::from_sqlx(path, e))?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|e| StoreError::from_sqlx(path, e))?;
        // A quick integrity check catches files that SQLite opens lazily but cannot read.
        let check: (String,) = sqlx::query_as("PRAGMA quick_check")
            .fetch_one(&pool)
            .await
            .map_err(|e| StoreError::from_sqlx(path, e))?;
        if check.0 != "ok" {
            pool.close().await;
            return Err(StoreError::Corrupt {
                path: path.to_path_buf(),
                reason: check.0,
            });
        }
        MIGRATOR
            .run(&pool)
            .await
            .map_err(|e| StoreError::from_migrate(path, e))?;
        Ok(Self {
            pool,
            path: path.to_path_buf(),
        })
    }

    /// Opens an in-memory database (for tests and the CLI's `--ephemeral` runs).
    pub async fn open_in_memory() -> Result<Self, StoreError> {
        let path = PathBuf::from(":memory:");
        let options = SqliteConnectOptions::from_str("sqlite::memory:")
            .map_err(|e| StoreError::from_sqlx(&path, e))?
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .map_err(|e| StoreError::from_sqlx(&path, e))?;
        MIGRATOR
            .run(&pool)
            .await
            .map_err(|e| StoreError::from_migrate(&path, e))?;
        Ok(Self { pool, path })
    }

    /// The database file this store writes to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection pool, for store submodules.
    /// A transaction that takes the write lock at once (`BEGIN IMMEDIATE`). A deferred one
    /// that reads first and writes later fails at once with "database is locked" when another
    /// session wrote meanwhile (WAL cannot upgrade its stale snapshot, and the busy timeout does
    /// not apply); this one waits its turn for up to the busy timeout instead.
    pub(crate) async fn write_transaction(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
        self.pool().begin_with("BEGIN IMMEDIATE").await
    }

    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Closes every connection, checkpointing the WAL.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Moves a database that could not be opened out of the way (with its `-wal` and `-shm` files),
/// so the app can start with a fresh one. Returns where the main file went.
pub fn move_aside(path: &Path) -> Result<PathBuf, StoreError> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let target = path.with_file_name(format!("{file_name}.corrupt-{stamp}"));
    std::fs::rename(path, &target).map_err(|source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    for suffix in ["-wal", "-shm"] {
        let side = path.with_file_name(format!("{file_name}{suffix}"));
        if side.exists() {
            let side_target = path.with_file_name(format!("{file_name}.corrupt-{stamp}{suffix}"));
            std::fs::rename(&side, side_target).map_err(|source| StoreError::Io {
                path: side.clone(),
                source,
            })?;
        }
    }
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn opens_in_wal_mode_and_migrates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join(DATABASE_FILE);
        let store = Store::open(&path).await.unwrap();
        let mode: (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(store.pool())
            .await
            .unwrap();
        assert_eq!(mode.0, "wal");
        let timeout: (i64,) = sqlx::query_as("PRAGMA busy_timeout")
            .fetch_one(store.pool())
            .await
            .unwrap();
        assert_eq!(timeout.0, 5000);
        store.close().await;
        // Reopening an up-to-date database is a no-op migration.
        Store::open(&path).await.unwrap().close().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn opens_raced_on_a_new_file_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DATABASE_FILE);
        let opens: Vec<_> = (0..8)
            .map(|_| {
                let path = path.clone();
                tokio::spawn(async move { Store::open(&path).await })
            })
            .collect();
        for open in opens {
            let store = open.await.unwrap().unwrap();
            store.create_session("/w", 1).await.unwrap();
            store.close().await;
        }
    }

    #[tokio::test]
    async fn a_file_that_is_not_a_database_is_reported_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DATABASE_FILE);
        let garbage = b"this is not a sqlite database, just some text that is long enough ....";
        std::fs::write(&path, garbage.repeat(100)).unwrap();
        let err = Store::open(&path).await.unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
        assert!(err.to_string().contains(&path.display().to_string()));
        // Never silently deleted.
        assert_eq!(std::fs::read(&path).unwrap(), garbage.repeat(100));

        let moved = move_aside(&path).unwrap();
        assert!(!path.exists());
        assert_eq!(std::fs::read(&moved).unwrap(), garbage.repeat(100));
        Store::open(&path).await.unwrap().close().await;
    }
}
