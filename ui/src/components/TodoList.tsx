// The agent's task list (from todo_write), pinned above the composer while it works.
import type { Todo } from "../session/state";

const MARK: Record<Todo["status"], string> = { pending: "○", in_progress: "◐", completed: "●" };

export function TodoList({ todos }: { todos: Todo[] }) {
  if (todos.length === 0) return null;
  const done = todos.filter((t) => t.status === "completed").length;
  return (
    <section className="todo-list" aria-label="The agent's task list" data-testid="todo-list">
      <h2>
        Tasks <span className="muted">{done}/{todos.length}</span>
      </h2>
      <ul>
        {todos.map((t) => (
          <li key={t.id} className={`todo-${t.status}`}>
            <span aria-hidden="true">{MARK[t.status]}</span> {t.content}
          </li>
        ))}
      </ul>
    </section>
  );
}
