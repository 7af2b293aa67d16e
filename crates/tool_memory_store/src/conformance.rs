//! The conformance suite every `RuleStore` implementation must pass: the same test
//! functions, each given a fresh store through a [`Harness`]. Backends in other crates
//! run it with [`conformance_suite!`](crate::conformance_suite).
//!
//! The tests live in rooms by what they check: `validation` (what a put refuses), `rules`
//! (writing, reading, search and statistics), `prompt` (the pinned selection), `unreadable`
//! (rows this version cannot read), `lifecycle` (revoke, restore, expire, confirm, history)
//! and `turn` (a whole turn applied in one transaction, once per turn key).
//! Each room uses `harness` alone, never another room.

mod harness;
mod lifecycle;
mod prompt;
mod rules;
mod turn;
mod unreadable;
mod validation;

pub use self::harness::{CORRUPT_PRIORITY, CORRUPT_RULE_TEXT, Corrupt, Harness, Result};
pub use self::lifecycle::*;
pub use self::prompt::*;
pub use self::rules::*;
pub use self::turn::*;
pub use self::unreadable::*;
pub use self::validation::*;

/// Runs every conformance test against the stores an async function `$harness()` makes.
///
/// With `optional`, `$harness()` returns `Option<Harness>` and each test passes without
/// running when it is `None`: for backends that need a server the machine may not have (the
/// harness says why it skipped, or panics where skipping is not allowed).
///
/// The calling crate needs `tokio` (macros, multi-thread runtime) as a dev-dependency.
#[macro_export]
macro_rules! conformance_suite {
    (optional $harness:path) => {
        $crate::__conformance_list!(optional $harness);
    };
    ($harness:path) => {
        $crate::__conformance_list!(required $harness);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __conformance_list {
    ($mode:ident $harness:path) => {
        $crate::__conformance_tests!($mode $harness;
            blank_tool_name_is_rejected_naming_the_field,
            blank_body_is_rejected_naming_the_field,
            oversized_fields_are_rejected_and_nothing_is_stored,
            put_then_get_round_trips,
            upsert_keeps_created_at_and_updates_the_body,
            upsert_keeps_fields_the_caller_leaves_unset,
            tool_name_is_normalised_on_every_path,
            unusual_tool_names_work_on_every_path,
            ids_are_kept_verbatim,
            blank_id_gets_one_assigned,
            list_orders_by_priority_then_freshness_then_id,
            list_orders_mixed_offset_timestamps_by_instant,
            delete_removes_only_its_target,
            delete_of_a_missing_rule_is_false,
            list_tool_names_is_sorted_and_skips_the_sentinel,
            prompt_rules_hold_only_eager_rules_of_the_named_tools,
            prompt_with_no_tools_scans_every_tool_and_the_sentinel,
            prompt_filter_duplicates_do_not_duplicate_rules,
            prompt_limit_keeps_every_critical_rule,
            prompt_limit_fills_with_high_rules_and_counts_the_rest,
            prompt_order_is_priority_tool_text_id,
            record_always_inserts,
            restore_writes_timestamps_verbatim,
            concurrent_upserts_of_one_id_lose_nothing,
            unreadable_row_is_skipped_counted_and_kept,
            unreadable_rows_come_with_the_listing_and_follow_every_change,
            unreadable_rows_of_the_no_tool_group_reach_every_prompt,
            search_ranks_by_keywords_within_one_tool,
            search_follows_updates_and_deletes,
            statistics_accumulate_apart_from_rules,
            prompt_sees_every_write_made_after_it_was_read,
            list_sees_every_write_made_after_it_was_read,
            revoked_rules_leave_listings_prompt_and_search_but_stay,
            history_records_every_change_newest_first,
            history_pages_with_limit_and_before,
            expired_rules_leave_the_prompt_and_expiry_is_recorded,
            proposed_rules_are_confirmed_once,
            guard_decisions_are_appended_to_history,
            version_changes_with_every_write_and_only_then,
            tool_counts_agree_with_the_listings,
            the_same_turn_twice_changes_nothing,
            a_turn_without_a_key_is_applied_each_time,
            a_turn_that_fails_half_way_stores_nothing,
            a_turn_revokes_before_it_states_its_rules,
            a_turn_keeps_material_and_observation_rules,
            concurrent_copies_of_a_turn_apply_once,
        );
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __conformance_tests {
    (required $harness:path; $($test:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() -> $crate::conformance::Result<()> {
                let harness = $harness().await;
                $crate::conformance::$test(&harness).await
            }
        )*
    };
    (optional $harness:path; $($test:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() -> $crate::conformance::Result<()> {
                let Some(harness) = $harness().await else {
                    return Ok(());
                };
                $crate::conformance::$test(&harness).await
            }
        )*
    };
}
