//! The eager rules for the pinned prompt: which tools, which priorities, the limit and the
//! order.

use std::sync::Arc;

use tool_memory_core::{Origin, RulePut, ToolMemoryPriority, UNSCOPED_TOOL};

use crate::RuleStore;
use crate::conformance::harness::{Harness, Result, put, texts};

use ToolMemoryPriority::{Critical, High, Normal};

pub async fn prompt_rules_hold_only_eager_rules_of_the_named_tools(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    h.store
        .put(put("email", "double-check recipient", High))
        .await?;
    h.store
        .put(put("email", "we use BCC for newsletters", Normal))
        .await?;
    h.store.put(put("shell", "avoid sudo", Critical)).await?;
    let prompt = h
        .store
        .rules_for_prompt(&["email".to_owned()], None)
        .await?;
    assert_eq!(
        texts(&prompt.rules),
        ["never email Sarah", "double-check recipient"]
    );
    assert_eq!(prompt.omitted_high, 0);
    Ok(())
}

pub async fn prompt_with_no_tools_scans_every_tool_and_the_sentinel(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    h.store.put(put("shell", "avoid sudo", High)).await?;
    h.store
        .put(put(UNSCOPED_TOOL, "never do that", Critical))
        .await?;
    let all = h.store.rules_for_prompt(&[], None).await?;
    let mut tools: Vec<&str> = all
        .rules
        .iter()
        .map(|rule| rule.tool_name.as_str())
        .collect();
    tools.sort();
    assert_eq!(tools, [UNSCOPED_TOOL, "email", "shell"]);
    // Rules that belong to no tool apply to every agent, so a filtered query includes them.
    let shell = h
        .store
        .rules_for_prompt(&["shell".to_owned()], None)
        .await?;
    assert_eq!(texts(&shell.rules), ["never do that", "avoid sudo"]);
    Ok(())
}

pub async fn prompt_filter_duplicates_do_not_duplicate_rules(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    let tools = ["email", "email", " Email ", "", "  "].map(str::to_owned);
    let prompt = h.store.rules_for_prompt(&tools, None).await?;
    assert_eq!(prompt.rules.len(), 1);
    Ok(())
}

pub async fn prompt_limit_keeps_every_critical_rule(h: &Harness) -> Result<()> {
    for index in 0..35 {
        h.store
            .put(put("shell", &format!("critical {index:02}"), Critical))
            .await?;
    }
    h.store.put(put("shell", "a high rule", High)).await?;
    let capped = h
        .store
        .rules_for_prompt(&["shell".to_owned()], Some(30))
        .await?;
    assert_eq!(capped.rules.len(), 35);
    assert!(capped.rules.iter().all(|rule| rule.priority == Critical));
    assert_eq!(capped.omitted_high, 1);
    let uncapped = h.store.rules_for_prompt(&[], None).await?;
    assert_eq!(uncapped.rules.len(), 36);
    Ok(())
}

pub async fn prompt_limit_fills_with_high_rules_and_counts_the_rest(h: &Harness) -> Result<()> {
    h.store
        .put(put("shell", "the critical one", Critical))
        .await?;
    for index in 0..35 {
        h.store
            .put(put("shell", &format!("high {index:02}"), High))
            .await?;
    }
    let capped = h.store.rules_for_prompt(&[], Some(30)).await?;
    assert_eq!(capped.rules.len(), 30);
    assert_eq!(capped.rules[0].rule, "the critical one");
    assert_eq!(capped.rules[29].rule, "high 28");
    assert_eq!(capped.omitted_high, 6);
    Ok(())
}

pub async fn prompt_order_is_priority_tool_text_id(h: &Harness) -> Result<()> {
    h.store
        .put(put("shell", "b high", High).with_id("2"))
        .await?;
    h.store.put(put("email", "z critical", Critical)).await?;
    h.store.put(put("shell", "a critical", Critical)).await?;
    h.store.put(put("email", "a high", High)).await?;
    h.store
        .put(put("shell", "b high", High).with_id("1"))
        .await?;
    let prompt = h.store.rules_for_prompt(&[], None).await?;
    let order: Vec<(&str, &str)> = prompt
        .rules
        .iter()
        .map(|rule| (rule.tool_name.as_str(), rule.id.as_str()))
        .collect();
    assert_eq!(
        texts(&prompt.rules),
        ["z critical", "a critical", "a high", "b high", "b high"]
    );
    assert_eq!(&order[3..], [("shell", "1"), ("shell", "2")]);
    Ok(())
}

pub async fn prompt_sees_every_write_made_after_it_was_read(h: &Harness) -> Result<()> {
    let read = |store: Arc<dyn RuleStore>| async move {
        let selection = store.rules_for_prompt(&[], None).await?;
        anyhow::Ok(
            texts(&selection.rules)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>(),
        )
    };
    assert!(read(h.store.clone()).await?.is_empty());
    let rule = h
        .store
        .put(put("bash", "never run rm -rf /", Critical).with_id("r"))
        .await?;
    assert_eq!(read(h.store.clone()).await?, ["never run rm -rf /"]);
    h.store
        .put(RulePut::new("bash", "never run rm -rf ~").with_id("r"))
        .await?;
    assert_eq!(read(h.store.clone()).await?, ["never run rm -rf ~"]);
    h.store
        .put(put("bash", "never run rm -rf ~", Normal).with_id("r"))
        .await?;
    assert!(read(h.store.clone()).await?.is_empty());
    h.store
        .put(put("bash", "never run rm -rf ~", High).with_id("r"))
        .await?;
    assert_eq!(read(h.store.clone()).await?.len(), 1);
    h.store.delete("bash", &rule.id, &Origin::Api).await?;
    assert!(read(h.store.clone()).await?.is_empty());
    Ok(())
}
