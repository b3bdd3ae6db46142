//! Built-in system tools the manager always knows (user tools of the same name override them).

mod attempt_completion;
mod new_task;

pub use attempt_completion::{ATTEMPT_COMPLETION, AttemptCompletion, AttemptCompletionParams};
pub use new_task::{NEW_TASK, NewTask, NewTaskParams};

use super::contract::ToolFactory;

/// Factories of every system tool.
pub fn system_factories() -> Vec<ToolFactory> {
    [
        ToolFactory::of_default::<AttemptCompletion>(),
        ToolFactory::of_default::<NewTask>(),
    ]
    .into_iter()
    .filter_map(|factory| match factory {
        Ok(factory) => Some(factory),
        Err(e) => {
            tracing::error!("system tool with an invalid name: {e}");
            None
        }
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_system_tools_are_provided() {
        let names: Vec<String> = system_factories()
            .iter()
            .map(|f| f.name().to_owned())
            .collect();
        assert_eq!(names, [ATTEMPT_COMPLETION, NEW_TASK]);
    }
}
