//! Word lists of the call view: recipient-like keys, wrappers, options that take a value,
//! and package runners.

/// Keys whose values name who a call reaches. Address-like matchers (e-mail, person) look
/// only here when a call has any, so a body that mentions Sarah is not an e-mail to Sarah.
pub(crate) const RECIPIENT_KEYS: &[&str] = &[
    "to",
    "cc",
    "bcc",
    "recipient",
    "recipients",
    "attendee",
    "attendees",
    "participant",
    "participants",
    "invitee",
    "invitees",
    "guest",
    "guests",
    "user",
    "users",
    "username",
    "channel",
    "channels",
    "name",
    "contact",
    "contacts",
    "people",
    "member",
    "members",
    "assignee",
    "assignees",
    "reviewer",
    "reviewers",
    "payee",
    "beneficiary",
    "handle",
    "email",
    "emails",
    "dm",
    "person",
    "mention",
    "mentions",
    "phone",
    "number",
    "receiver",
    "addressee",
];

/// Programs that run another program: `sudo rm -rf /` runs both `sudo` and `rm`.
pub(crate) const WRAPPERS: &[&str] = &[
    "sudo",
    "doas",
    "env",
    "nohup",
    "time",
    "exec",
    "nice",
    "ionice",
    "command",
    "builtin",
    "xargs",
    "watch",
    "timeout",
    "strace",
    "caffeinate",
    "su",
];

/// Flags that take the next word as their value, so that word is not a subcommand
/// (`git -C repo push`, `kubectl -n prod delete`).
pub(crate) const VALUE_FLAGS: &[&str] = &[
    "-c",
    "-C",
    "--git-dir",
    "--work-tree",
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "--profile",
    "--region",
    "--project",
    "-u",
    "-g",
    "--user",
    "-h",
    "--host",
    "-p",
    "--port",
];

/// Runners that take the program to run as their first word after their options.
pub(crate) const RUNNERS: &[&str] = &["bunx", "npx", "pnpx", "uvx"];

/// Runners whose subcommand (the second word) runs the program named after it.
pub(crate) const RUNNER_SUBCOMMANDS: &[(&str, &str)] = &[
    ("bun", "x"),
    ("bundle", "exec"),
    ("hatch", "run"),
    ("npm", "exec"),
    ("pdm", "run"),
    ("pipenv", "run"),
    ("pipx", "run"),
    ("pnpm", "dlx"),
    ("pnpm", "exec"),
    ("poetry", "run"),
    ("rye", "run"),
    ("uv", "run"),
    ("yarn", "dlx"),
    ("yarn", "exec"),
];
