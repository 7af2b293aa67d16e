//! The post-turn hook a host agent loop registers beside its other hooks.

use async_trait::async_trait;
use tool_memory_capture::TurnRecord;

use crate::{ActiveMemoryClient, Result};

/// The name the capture hook registers under, as in the reference.
pub const TOOL_MEMORY_CAPTURE_HOOK: &str = "tool_memory_capture";

/// Something that runs after every finished turn.
#[async_trait]
pub trait PostTurnHook: Send + Sync {
    /// The hook's stable name.
    fn name(&self) -> &str;
    /// Called once per finished turn.
    async fn on_turn_complete(&self, turn: &TurnRecord) -> Result<()>;
}

#[async_trait]
impl PostTurnHook for ActiveMemoryClient {
    fn name(&self) -> &str {
        TOOL_MEMORY_CAPTURE_HOOK
    }

    async fn on_turn_complete(&self, turn: &TurnRecord) -> Result<()> {
        self.after_turn(turn).await.map(drop)
    }
}
