//! Token usage per model request: recorded as each request ends, summed for a session, per model
//! (so a resumed session can price what it used before), and the last request (how full the
//! context was).

use super::db::Store;
use super::error::StoreError;
pub use foreman_protocol::records::UsageTotals;

/// A session's token totals on one model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelUsage {
    pub model: String,
    pub totals: UsageTotals,
}

impl Store {
    /// Records the token usage of one model request.
    pub async fn record_usage(
        &self,
        session_id: &str,
        model: &str,
        usage: UsageTotals,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO usage (session_id, model, input, output, cache_read, cache_write, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )
        .bind(session_id)
        .bind(model)
        .bind(usage.input)
        .bind(usage.output)
        .bind(usage.cache_read)
        .bind(usage.cache_write)
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// The session's token totals over all its requests.
    pub async fn session_usage(&self, session_id: &str) -> Result<UsageTotals, StoreError> {
        let (input, output, cache_read, cache_write, requests): (i64, i64, i64, i64, i64) =
            sqlx::query_as(
                "SELECT COALESCE(SUM(input),0), COALESCE(SUM(output),0), COALESCE(SUM(cache_read),0),
                        COALESCE(SUM(cache_write),0), COUNT(*)
                 FROM usage WHERE session_id = ?1",
            )
            .bind(session_id)
            .fetch_one(self.pool())
            .await
            .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(UsageTotals {
            input,
            output,
            cache_read,
            cache_write,
            requests,
        })
    }

    /// The session's token totals per model, by model name.
    pub async fn usage_by_model(&self, session_id: &str) -> Result<Vec<ModelUsage>, StoreError> {
        let rows: Vec<(String, i64, i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT model, SUM(input), SUM(output), SUM(cache_read), SUM(cache_write), COUNT(*)
             FROM usage WHERE session_id = ?1 GROUP BY model ORDER BY model",
        )
        .bind(session_id)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows
            .into_iter()
            .map(
                |(model, input, output, cache_read, cache_write, requests)| ModelUsage {
                    model,
                    totals: UsageTotals {
                        input,
                        output,
                        cache_read,
                        cache_write,
                        requests,
                    },
                },
            )
            .collect())
    }

    /// The usage of the session's most recent request, if it made one.
    pub async fn last_usage(&self, session_id: &str) -> Result<Option<UsageTotals>, StoreError> {
        let row: Option<(i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT input, output, cache_read, cache_write FROM usage
             WHERE session_id = ?1 ORDER BY id DESC LIMIT 1",
        )
        .bind(session_id)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(
            row.map(|(input, output, cache_read, cache_write)| UsageTotals {
                input,
                output,
                cache_read,
                cache_write,
                requests: 1,
            }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn usage_adds_up_per_session() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        assert_eq!(
            store.session_usage(&s.id).await.unwrap(),
            UsageTotals::default()
        );
        let one = UsageTotals {
            input: 10,
            output: 5,
            cache_read: 2,
            cache_write: 1,
            requests: 0,
        };
        store.record_usage(&s.id, "m", one, 1).await.unwrap();
        store.record_usage(&s.id, "m", one, 2).await.unwrap();
        let total = store.session_usage(&s.id).await.unwrap();
        assert_eq!((total.input, total.output, total.requests), (20, 10, 2));
    }

    #[tokio::test]
    async fn usage_by_model_and_the_last_request() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        let other = store.create_session("/ws", 1).await.unwrap();
        assert!(store.usage_by_model(&s.id).await.unwrap().is_empty());
        assert_eq!(store.last_usage(&s.id).await.unwrap(), None);
        let usage = |input, cache_read| UsageTotals {
            input,
            output: 1,
            cache_read,
            cache_write: 0,
            requests: 0,
        };
        store
            .record_usage(&s.id, "gpt-4o", usage(100, 0), 1)
            .await
            .unwrap();
        store
            .record_usage(&s.id, "claude-sonnet-4", usage(10, 500), 2)
            .await
            .unwrap();
        store
            .record_usage(&s.id, "gpt-4o", usage(30, 7), 3)
            .await
            .unwrap();
        store
            .record_usage(&other.id, "gpt-4o", usage(999, 0), 4)
            .await
            .unwrap();
        let by_model = store.usage_by_model(&s.id).await.unwrap();
        assert_eq!(
            by_model,
            [
                ModelUsage {
                    model: "claude-sonnet-4".into(),
                    totals: UsageTotals {
                        input: 10,
                        output: 1,
                        cache_read: 500,
                        cache_write: 0,
                        requests: 1
                    }
                },
                ModelUsage {
                    model: "gpt-4o".into(),
                    totals: UsageTotals {
                        input: 130,
                        output: 2,
                        cache_read: 7,
                        cache_write: 0,
                        requests: 2
                    }
                },
            ]
        );
        let last = store.last_usage(&s.id).await.unwrap().unwrap();
        assert_eq!((last.input, last.cache_read, last.requests), (30, 7, 1));
    }
}
