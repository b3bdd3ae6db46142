//! The registry of user tools: factories by name, replaceable and removable at run time.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, PoisonError, RwLock};

use super::context::ToolEnv;
use super::contract::{InvalidToolName, Tool, ToolFactory};
use super::error::ToolError;

/// Tool factories by name. Cloning shares the same registry.
#[derive(Debug, Clone, Default)]
pub struct ToolRegistry {
    factories: Arc<RwLock<BTreeMap<String, ToolFactory>>>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `factory`; a factory of the same name is replaced (with a warning).
    pub fn register(&self, factory: ToolFactory) {
        let name = factory.name().to_owned();
        let replaced = self
            .factories
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(name.clone(), factory);
        if replaced.is_some() {
            tracing::warn!(tool = %name, "tool registered twice; the new registration replaces the old one");
        }
    }

    /// Registers a tool made with `T::default()` for each call.
    pub fn register_default<T: Tool + Default>(&self) -> Result<(), InvalidToolName> {
        self.register(ToolFactory::of_default::<T>()?);
        Ok(())
    }

    /// Registers one shared instance (for tools whose state should be shared between calls).
    pub fn register_shared(&self, tool: Arc<dyn Tool>) -> Result<(), InvalidToolName> {
        self.register(ToolFactory::shared(tool)?);
        Ok(())
    }

    /// Registers an async factory of the session environment, for tools with injected deps.
    pub fn register_factory<F, Fut>(&self, name: &str, make: F) -> Result<(), InvalidToolName>
    where
        F: Fn(ToolEnv) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Arc<dyn Tool>, ToolError>> + Send + 'static,
    {
        self.register(ToolFactory::new(name, make)?);
        Ok(())
    }

    /// Removes the tool named `name`; returns whether it was registered.
    pub fn unregister(&self, name: &str) -> bool {
        self.factories
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(name)
            .is_some()
    }

    /// The factory named `name`.
    pub fn get(&self, name: &str) -> Option<ToolFactory> {
        self.factories
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(name)
            .cloned()
    }

    /// Every factory, by name.
    pub fn factories(&self) -> Vec<ToolFactory> {
        self.factories
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .cloned()
            .collect()
    }

    /// Registered names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.factories
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{ToolContext, ToolKind, simple_tool};
    use serde::Deserialize;
    use tokio::sync::mpsc::unbounded_channel;

    /// No params.
    #[derive(Deserialize, schemars::JsonSchema)]
    struct NoParams {}

    fn tool(name: &str, description: &str) -> Arc<dyn Tool> {
        Arc::new(simple_tool(
            name,
            ToolKind::Other,
            description,
            |_: NoParams, ctx: ToolContext| async move {
                ctx.set_result("done");
                Ok(())
            },
        ))
    }

    fn env() -> ToolEnv {
        let (tx, _rx) = unbounded_channel();
        ToolEnv::new("/tmp", "s", tx)
    }

    #[tokio::test]
    async fn registering_twice_replaces_and_unregister_removes() {
        let registry = ToolRegistry::new();
        registry.register_shared(tool("a", "first")).unwrap();
        registry.register_shared(tool("a", "second")).unwrap();
        registry.register_shared(tool("b", "other")).unwrap();
        assert_eq!(registry.names(), ["a", "b"]);
        let a = registry.get("a").unwrap().make(env()).await.unwrap();
        assert_eq!(a.description().await, "second");
        assert!(registry.unregister("a"));
        assert!(!registry.unregister("a"));
        assert!(registry.get("a").is_none());
        assert_eq!(registry.factories().len(), 1);
    }

    #[tokio::test]
    async fn factories_get_the_session_environment() {
        let registry = ToolRegistry::new();
        registry
            .register_factory("ws", |env: ToolEnv| async move {
                let root = env.workspace_root().display().to_string();
                Ok(tool("ws", &format!("Works in {root}")))
            })
            .unwrap();
        let made = registry.get("ws").unwrap().make(env()).await.unwrap();
        assert_eq!(made.description().await, "Works in /tmp");
        assert!(
            registry
                .register_factory("bad name", |_env| async { Ok(tool("x", "")) })
                .is_err()
        );
    }
}
