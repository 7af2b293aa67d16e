//! Captured edicts awaiting the user's confirmation: shown as advice, never as a hard
//! constraint, and without the critical guarantee.

use tool_memory_prompt::render_prompt;

use crate::{critical, high};

#[test]
fn renders_an_unconfirmed_edict_as_advice() {
    let mut proposed = critical("p", "send_email", "never email Sarah");
    proposed.meta.proposed = true;
    let confirmed = critical("c", "send_email", "never email Bob");
    let report = render_prompt(&[proposed, confirmed], usize::MAX);
    assert!(
        report
            .rendered
            .contains("- **[critical]** never email Bob\n"),
        "{}",
        report.rendered
    );
    assert!(
        report
            .rendered
            .contains("- **[unconfirmed]** never email Sarah\n"),
        "{}",
        report.rendered
    );
    assert!(!report.rendered.contains("**[critical]** never email Sarah"));
}

#[test]
fn an_unconfirmed_edict_can_be_left_out_and_is_announced() {
    let mut proposed = critical("p", "send_email", &"never email Sarah ".repeat(20));
    proposed.meta.proposed = true;
    let pinned = critical("c", "send_email", "never email Bob");
    let extra = high("h", "send_email", &"double-check recipients ".repeat(20));
    let report = render_prompt(&[proposed, pinned, extra], 900);
    assert!(report.rendered.contains("never email Bob"));
    assert_eq!(report.left_out.len(), 2, "{}", report.rendered);
    assert!(
        report
            .rendered
            .contains("1 high-priority rule and 1 unconfirmed rule left out"),
        "{}",
        report.rendered
    );
}
