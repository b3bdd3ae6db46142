//! Why a consent to hooks was not recorded.

use thiserror::Error;

use crate::store::StoreError;

#[derive(Debug, Error)]
pub enum HookError {
    #[error("the hooks changed since they were shown: look at them again before you allow them")]
    Changed,
    #[error("this workspace has no hooks that need consent")]
    NothingToConsent,
    #[error(transparent)]
    Store(#[from] StoreError),
}
