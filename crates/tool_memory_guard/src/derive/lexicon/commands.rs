//! Derivation's word lists about orders and commands: the cue words of each polarity, the
//! programs and their subcommands, git's push and branch words, SQL's statements, pipes, and
//! the words around commands. Data only, one item a line; each list says what belongs in it.

pub(crate) const FORBID_CUES: &[&str] = &[
    "never",
    "don't",
    "dont",
    "do not",
    "does not",
    "doesn't",
    "no",
    "not",
    "avoid",
    "stop",
    "must not",
    "mustn't",
    "cannot",
    "can't",
    "shouldn't",
    "should not",
    "forbidden",
    "prohibited",
    "off-limits",
    "off limits",
    "refrain",
    "under no circumstances",
    "won't",
    "nobody",
    "banned",
    "not allowed",
    "disallowed",
    "block",
    // "Hands off instance `i-0a1...`", "stay away from prod": bans, however idiomatic.
    "hands off",
    "hands-off",
    // "Leave the notebooks under `nb/archive/` untouched".
    "untouched",
    "stay away from",
    "keep away from",
    // (Rules in other languages: `languages.rs`.)
    // "### Hard NOs", "no-go": a list of what is never done.
    "hard no",
    "hard nos",
    "no-go",
    "no-gos",
    // "`sudo` is a no-no", "`eval` is taboo": the same in other words.
    "no-no",
    "no-nos",
    "taboo",
    // "Deleting a Zendesk user is off the table", "is out of the question".
    "off the table",
    "out of the question",
    // "Nothing in #random or #all-hands": no post there at all.
    "nothing in",
    // "Running quuxctl rebuild ... Leave that to me.": the user's job, so not the agent's.
    "leave it to me",
    "leave that to me",
    "leave this to me",
    "leave those to me",
];
pub(crate) const REQUIRE_CUES: &[&str] = &[
    "always",
    "must",
    "make sure",
    "ensure",
    "remember to",
    "be sure to",
    "every time",
    "each time",
    "need to",
    "needs to",
    // "Every `az` command needs `--subscription dev`": a requirement, where "needs my OK" is
    // consent (read first).
    "needs",
    "has to",
    "have to",
    "required",
    "requires",
    "should",
];
/// A forbid cue followed by one of these is a requirement: "never forget --dry-run".
pub(crate) const DOUBLE_NEGATIVES: &[&str] = &[
    "never forget",
    "don't forget",
    "do not forget",
    "never skip",
    "don't skip",
    "do not skip",
    "never omit",
    "don't omit",
    "do not omit",
    "never leave out",
    "don't leave out",
];
/// The user wants to be asked, not refused.
pub(crate) const ASK_CUES: &[&str] = &[
    "without asking",
    "without checking",
    "without confirming",
    "without my",
    "without explicit",
    "without approval",
    "without permission",
    "without a confirmation",
    "without confirmation",
    "unless i",
    "ask me",
    "ask first",
    // "If a task seems to require `x`, stop and ask".
    "stop and ask",
    "ask before",
    "asking first",
    "asking me",
    "check with me",
    "confirm with me",
    "get my",
    "get approval",
    "get permission",
    "first ask",
    "unless approved",
    "unless explicitly",
    "without consulting",
    // Consent said as a need: "`DELETE` needs my explicit OK", "only with my approval",
    // "wait for my go-ahead".
    "need my",
    "needs my",
    "requires my",
    "require my",
    "my approval",
    "my permission",
    "my consent",
    "my sign-off",
    "my signoff",
    "my go-ahead",
    "my explicit",
    "my ok",
    // (In other languages: `languages.rs`.)
    // "`kubectl delete` needs a yes from me every single time."
    "yes from me",
    "ok from me",
    "go-ahead from me",
    "my say-so",
    "my say so",
    "my okay",
    "explicit ok",
    "explicit approval",
    "explicit permission",
    "explicit consent",
    "needs approval",
    "need approval",
    // Consent said as an idiom: "loop me in before you `terraform destroy` anything", "run
    // it by me first", "clear it with me".
    "check in with me",
    "clear it with me",
    "loop me in",
    "ping me before",
    "ping me first",
    "run it by me",
    "run it past me",
    "talk to me before",
    "talk to me first",
    "requires approval",
    "needs sign-off",
    "requires sign-off",
    "ask for approval",
    "ask for permission",
    "ask permission",
    "wait for me",
    "wait for my",
    "until i approve",
    "until i confirm",
    "until i say",
    "after i approve",
    "after i confirm",
    // "is run only after I said yes", "once I've okayed it".
    "after i said",
    "after i say",
    "after i've said",
    "after i have said",
    "after i gave",
    "after i give",
    "after i've approved",
    "after i ok",
    "after i okay",
    "once i say",
    "once i said",
    "once i've said",
    "once i approve",
    "once i've approved",
    "once i've okayed",
    "once i confirm",
    "confirm first",
    "check first",
];

/// The subcommands a flag belongs to, for a rule that requires it of the bare program
/// ("always pass `--namespace` to helm"): the ones that act on what the flag selects. A
/// flag missing here holds for every subcommand of the program.
pub(crate) const FLAG_SUBCOMMANDS: &[(&str, &str, &[&[&str]])] = &[
    ("helm", "--namespace", &[HELM_RELEASE_COMMANDS]),
    ("helm", "-n", &[HELM_RELEASE_COMMANDS]),
    ("helm", "--kube-context", &[HELM_RELEASE_COMMANDS]),
    ("kubectl", "--namespace", &[KUBECTL_NAMESPACED_COMMANDS]),
    ("kubectl", "-n", &[KUBECTL_NAMESPACED_COMMANDS]),
    (
        "kubectl",
        "--context",
        &[KUBECTL_NAMESPACED_COMMANDS, KUBECTL_CLUSTER_ONLY_COMMANDS],
    ),
    ("pnpm", "--frozen-lockfile", &[&["install", "i"]]),
    ("yarn", "--frozen-lockfile", &[&["install"]]),
    ("yarn", "--immutable", &[&["install"]]),
    ("npm", "--save-exact", &[&["install", "i", "add"]]),
    ("pip", "--require-hashes", &[&["install"]]),
    ("pip", "--no-cache-dir", &[&["install"]]),
    ("docker", "--rm", &[&["run"]]),
    ("git", "--force-with-lease", &[&["push"]]),
];
/// Helm's subcommands that act on a release in a namespace (not `repo`, `search`, `version`).
const HELM_RELEASE_COMMANDS: &[&str] = &[
    "install",
    "upgrade",
    "uninstall",
    "delete",
    "rollback",
    "status",
    "list",
    "ls",
    "history",
    "get",
    "test",
    "template",
];
/// Kubectl's subcommands that act on namespaced objects (not `config`, `version`,
/// `api-resources`, `completion`, `plugin`, `explain`).
const KUBECTL_NAMESPACED_COMMANDS: &[&str] = &[
    "get",
    "describe",
    "apply",
    "create",
    "delete",
    "edit",
    "patch",
    "replace",
    "logs",
    "exec",
    "port-forward",
    "rollout",
    "scale",
    "autoscale",
    "expose",
    "run",
    "set",
    "label",
    "annotate",
    "top",
    "cp",
    "attach",
    "debug",
    "wait",
    "diff",
    "events",
    "auth",
];
/// Kubectl's subcommands that talk to a cluster besides the namespaced ones: the cluster-wide
/// reads and node operations.
const KUBECTL_CLUSTER_ONLY_COMMANDS: &[&str] = &[
    "cluster-info",
    "api-resources",
    "api-versions",
    "explain",
    "drain",
    "cordon",
    "uncordon",
    "taint",
];

/// Words that open an exception to a ban: what follows is excused ("never read `.env*`
/// except `.env.example`", "don't push, unless it's to a `feature/*` branch").
pub(crate) const EXCEPT_CUES: &[&str] = &[
    "except",
    "excepting",
    "other than",
    "apart from",
    "aside from",
    "excluding",
    "unless it's",
    "unless it is",
    "unless they're",
    "unless they are",
];
/// Verbs of change: a ban said with them alone is about writing, so a call that only reads
/// is not concerned ("never write to `/etc/**`" and `cat /etc/hosts`).
pub(crate) const WRITE_VERBS: &[&str] = &[
    "write",
    "writes",
    "writing",
    "written",
    "edit",
    "edits",
    "editing",
    "modify",
    "modifies",
    "modifying",
    "change",
    "changes",
    "changing",
    "delete",
    "deletes",
    "deleting",
    "remove",
    "removes",
    "removing",
    "overwrite",
    "overwrites",
    "overwriting",
    "create",
    "creates",
    "creating",
    "update",
    "updates",
    "updating",
    "mutate",
    "mutates",
    "mutating",
    "rename",
    "renaming",
    "commit",
    "commits",
    "committing",
    "save",
    "saving",
    "alter",
    "altering",
];
/// Verbs of reading or of any use: beside a verb of change they keep a ban about every access
/// ("never read or write `.env`", "don't touch `/etc`").
pub(crate) const ANY_ACCESS_VERBS: &[&str] = &[
    "read",
    "reads",
    "reading",
    "open",
    "opens",
    "opening",
    "view",
    "viewing",
    "cat",
    "access",
    "accessing",
    "look",
    "looking",
    "touch",
    "touching",
    "use",
    "using",
    "see",
    "print",
    "printing",
    "show",
    "display",
    "list",
    "listing",
    "inspect",
    "copy",
    "copying",
    "download",
    "grep",
    "search",
    "run",
    "running",
    "execute",
    "exec",
    "source",
    "load",
    "loading",
    "expose",
    "leak",
    "log",
    "share",
    "send",
    "upload",
    "cp",
    "mv",
    "move",
    "moving",
];

/// Programs recognised in prose as the start of a command.
pub(crate) const PROGRAMS: &[&str] = &[
    "sudo",
    "rm",
    "git",
    "terraform",
    "kubectl",
    "docker",
    "docker-compose",
    "podman",
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "pip",
    "pip3",
    "curl",
    "wget",
    "chmod",
    "chown",
    "dd",
    "mkfs",
    "ssh",
    "scp",
    "rsync",
    "helm",
    "aws",
    "gcloud",
    "gsutil",
    "az",
    "cargo",
    "brew",
    "apt",
    "apt-get",
    "yum",
    "dnf",
    "systemctl",
    "psql",
    "mysql",
    // Database clients a rule names as the way statements go ("Never run DROP through
    // `snowsql`"): the program the statements are scoped to, not a word to find.
    "snowsql",
    "sqlcmd",
    "sqlite3",
    "duckdb",
    "clickhouse-client",
    "cqlsh",
    "mongosh",
    "redis-cli",
    "shutdown",
    "reboot",
    "killall",
    "pkill",
    "crontab",
    "iptables",
    "fdisk",
    "heroku",
    "vercel",
    "ansible-playbook",
    "pulumi",
    "eval",
    "su",
    "doas",
];
/// Programs that are also English words: commands only when a flag follows.
pub(crate) const AMBIGUOUS_PROGRAMS: &[&str] =
    &["kill", "mv", "cp", "find", "make", "cat", "chattr"];

pub(crate) fn subcommands(program: &str) -> &'static [&'static str] {
    match program {
        "git" => &[
            "push",
            "reset",
            "clean",
            "rebase",
            "commit",
            "checkout",
            "merge",
            "branch",
            "tag",
            "stash",
            "gc",
            "pull",
            "fetch",
            "cherry-pick",
            "revert",
            "restore",
            "switch",
            "filter-branch",
            "add",
            "rm",
            "drop",
            "clear",
            "prune",
        ],
        "terraform" | "pulumi" => &[
            "apply",
            "plan",
            "destroy",
            "import",
            "state",
            "init",
            "taint",
            "untaint",
            "workspace",
            "refresh",
            "rm",
            "delete",
            "up",
        ],
        "kubectl" => &[
            "delete",
            "apply",
            "exec",
            "drain",
            "scale",
            "rollout",
            "edit",
            "patch",
            "cordon",
            "replace",
            "create",
            "restart",
            "undo",
            "namespace",
            "ns",
            "pod",
            "pods",
            "deployment",
            "deployments",
        ],
        "docker" | "podman" | "docker-compose" => &[
            "rm",
            "rmi",
            "system",
            "prune",
            "push",
            "run",
            "kill",
            "stop",
            "volume",
            "image",
            "container",
            "compose",
            "down",
            "exec",
            "build",
            "pull",
            "login",
        ],
        "npm" | "pnpm" | "yarn" | "pip" | "pip3" | "cargo" | "brew" | "apt" | "apt-get" | "yum"
        | "dnf" => &[
            "publish",
            "install",
            "uninstall",
            "update",
            "upgrade",
            "audit",
            "unpublish",
            "deprecate",
            "add",
            "remove",
            "purge",
            "autoremove",
            "yank",
            "fix",
        ],
        "helm" => &["install", "uninstall", "upgrade", "delete", "rollback"],
        "aws" => &[
            "s3",
            "rm",
            "rb",
            "ec2",
            "terminate-instances",
            "cloudformation",
            "delete-stack",
            "iam",
            "rds",
            "delete-db-instance",
            "lambda",
            "delete-function",
        ],
        "gcloud" => &["compute", "instances", "delete", "projects", "sql"],
        "systemctl" => &[
            "stop", "restart", "disable", "mask", "kill", "reboot", "poweroff",
        ],
        "heroku" => &["apps", "destroy", "pg", "reset", "run"],
        "vercel" => &["deploy", "remove", "rm"],
        _ => &[],
    }
}

pub(crate) const BRANCHES: &[&str] = &[
    "main",
    "master",
    "production",
    "prod",
    "release",
    "develop",
    "trunk",
    "gh-pages",
];
pub(crate) const PUSH_WORDS: &[&str] = &["push", "pushing", "pushes", "pushed"];
pub(crate) const FORCE_PUSH_WORDS: &[&str] = &[
    "force-push",
    "force-pushing",
    "force-pushes",
    "force-pushed",
    "forcepush",
];
/// A clause that turns to what the user wants instead.
/// Words a rule opens with when it names the way to do it before the ban: "Run `npm ci`,
/// never plain `npm install`", "Use `uv`, not `pip`".
pub(crate) const POSITIVE_OPENERS: &[&str] = &[
    "always run",
    "always use",
    "go with",
    "prefer",
    "run",
    "stick to",
    "stick with",
    "use",
];
pub(crate) const POSITIVE_TURNS: &[&str] = &[
    ", use ",
    "; use ",
    ". use ",
    ". always use ",
    "\nalways use ",
    "\nuse ",
    ", prefer ",
    "; prefer ",
    " but use ",
    " and use ",
    ", try ",
    " use instead",
    ", just use ",
    // A clause of its own that starts with the alternative: "Never `git push --force`. Use
    // `git push --force-with-lease` if you really must." (kept clauses are joined by lines).
    "\nuse ",
    "\nprefer ",
    "\ntry ",
];
pub(crate) const SQL_PHRASES: &[&str] = &[
    "drop table",
    "drop tables",
    "drop database",
    "drop databases",
    "drop schema",
    "drop schemas",
    "truncate table",
    "truncate tables",
];
/// Words that say one command's output goes into another.
pub(crate) const PIPE_WORDS: &[&str] = &["pipe", "piped", "pipes", "piping"];
/// Programs that run what they read: the end of a pipe a rule forbids.
/// The shells a download piped into one may run in: a rule on `curl | sh` holds for each.
pub(crate) const SHELLS_OF_PIPES: &[&str] = &[
    "ash",
    "bash",
    "dash",
    "fish",
    "iex",
    "invoke-expression",
    "ksh",
    "sh",
    "zsh",
];
/// Programs that download what a URL holds: a ban on piping a download into a shell (`curl
/// | sh`) holds for each of them.
pub(crate) const FETCHERS: &[&str] = &[
    "aria2c",
    "curl",
    "fetch",
    "http",
    "https",
    "invoke-restmethod",
    "invoke-webrequest",
    "irm",
    "iwr",
    "wget",
    "xh",
];
pub(crate) const INTERPRETERS: &[&str] = &[
    "bash", "dash", "fish", "node", "perl", "php", "pwsh", "python", "python3", "ruby", "sh",
    "sudo", "zsh",
];

/// SQL's statement keywords, and `WHERE`. Written in capitals in prose ("never DROP or TRUNCATE
/// anything"), or opening a code span (`ALTER TABLE`), they name the statement.
pub(crate) const SQL_KEYWORDS: &[&str] = &[
    "alter", "delete", "drop", "grant", "insert", "revoke", "truncate", "update", "where",
];
/// SQL statements that change data or schema (one list with the call's reading of them).
pub(crate) use crate::call::SQL_WRITE_STATEMENTS;
/// Words of a tool's name that make it run database statements (`mcp__db__run_query`,
/// `mcp__postgres__query`, `execute_sql`).
pub(crate) const DATABASE_TOOL_WORDS: &[&str] = &[
    "bigquery",
    "database",
    "db",
    "mysql",
    "postgres",
    "postgresql",
    "query",
    "snowflake",
    "sql",
    "sqlite",
];
pub(crate) const HOST_TRIGGERS: &[&str] = &["host", "server", "machine", "box"];
pub(crate) const NOT_HOSTS: &[&str] = &[
    "the",
    "a",
    "an",
    "any",
    "into",
    "to",
    "on",
    "as",
    "with",
    "without",
    "prod",
    "production",
    "servers",
    "hosts",
    "machines",
    "boxes",
    "root",
    "anything",
    "it",
    "them",
];
/// Abbreviations that look like file names.
pub(crate) const NOT_FILES: &[&str] = &["e.g", "i.e", "a.m", "p.m", "etc", "vs", "approx", "u.s"];
/// Words after which a wrapper (`sudo`) wraps the command before it: "npm install with sudo".
pub(crate) const WRAPPER_JOINS: &[&str] = &["with", "using", "via", "under"];
/// Words that join one name to the next: "Sarah or Tom".
pub(crate) const NAME_JOINS: &[&str] = &["or", "and", "nor"];
/// Verbs of running: a script named after one is a command ("before running `./deploy.sh`").
pub(crate) const RUN_VERBS: &[&str] = &[
    "run",
    "runs",
    "running",
    "execute",
    "executes",
    "executing",
    "invoke",
    "invoking",
    "launch",
    "launching",
    "call",
    "calling",
];
/// Verbs that delete a branch when one follows ("delete remote branches", "deleting any
/// branch").
pub(crate) const DELETE_VERBS: &[&str] = &[
    "delete", "deletes", "deleting", "remove", "removes", "removing", "drop", "dropping",
];

/// The words of an order right before a bare verb ("never push", "do not merge", "no
/// rebasing", "never, ever push"); "before (you)" opens one only after a word of asking
/// ([`BARE_ORDER_ASKING`]).
pub(crate) const BARE_ORDER_OPENERS: &[&str] = &["don't", "dont", "ever", "never", "no", "not"];

/// Words of asking that make "before (you) push" the order's object: "Ask before you push",
/// "check with me before merging", "get my approval before you tag" ("me" is whom a question
/// goes to; "check the dashboard before you deploy" asks no one).
pub(crate) const BARE_ORDER_ASKING: &[&str] = &[
    "approval", "ask", "asking", "confirm", "consult", "me", "ping",
];

/// Words after a bare verb that are the order's circumstance, not the verb's object ("push
/// without asking", "merge until CI is green", "commit anything").
pub(crate) const BARE_ORDER_FOLLOWERS: &[&str] = &["anything", "unless", "until", "without"];

/// Adverbs between a bare verb and what follows it, which say nothing of its object: "never
/// rebase, ever", "don't push yet"; "commit directly to main" is still about main.
pub(crate) const BARE_ORDER_ADVERBS: &[&str] = &["again", "directly", "ever", "yet"];

/// Git's verbs that people say without "git", with the objects that make them git's: "tag a
/// release" is `git tag`, "rebase the branch" is `git rebase`, "stash your changes" is `git
/// stash`.
pub(crate) const GIT_VERB_OBJECTS: &[(&str, &[&str])] = &[
    (
        "rebase",
        &["branch", "branches", "main", "master", "onto", "history"],
    ),
    (
        "tag",
        &[
            "release", "releases", "version", "versions", "build", "builds", "commit", "commits",
        ],
    ),
    ("stash", &["changes", "edits", "work"]),
    ("cherry-pick", &["commit", "commits", "fix", "fixes"]),
    (
        "push",
        &["commit", "commits", "changes", "branch", "branches"],
    ),
];

/// Bans in scripts written without spaces between words (Japanese, Chinese, Korean): found
/// as substrings, since such a text has no word boundaries to look them up by. "禁止コマンド"
/// ("forbidden commands"), "不要" ("don't"), "금지" ("forbidden").
pub(crate) const UNSPACED_FORBID_CUES: &[&str] =
    &["しないで", "不得", "不要", "禁止", "금지", "하지 마"];

/// Programs that do one job, each with the commands that do that job: "bun only", "uv only",
/// "use podman exclusively" forbid the others' (installing and removing packages, and their
/// runners: `npx` is npm's), not every use of them (`npm run build` runs a script).
pub(crate) const ALTERNATIVES: &[&[(&str, &[&str])]] = &[
    &[
        (
            "bun",
            &["bun add", "bun install", "bun remove", "bun update", "bunx"],
        ),
        (
            "npm",
            &[
                "npm ci",
                "npm install",
                "npm uninstall",
                "npm update",
                "npx",
            ],
        ),
        (
            "pnpm",
            &[
                "pnpm add",
                "pnpm dlx",
                "pnpm install",
                "pnpm remove",
                "pnpm update",
                "pnpx",
            ],
        ),
        ("yarn", &["yarn"]),
    ],
    &[
        (
            "conda",
            &[
                "conda create",
                "conda install",
                "conda remove",
                "conda update",
            ],
        ),
        (
            "pdm",
            &["pdm add", "pdm install", "pdm remove", "pdm update"],
        ),
        ("pip", &["pip download", "pip install", "pip uninstall"]),
        (
            "pipenv",
            &["pipenv install", "pipenv uninstall", "pipenv update"],
        ),
        (
            "poetry",
            &[
                "poetry add",
                "poetry install",
                "poetry lock",
                "poetry remove",
                "poetry update",
            ],
        ),
        ("uv", &["uv add", "uv pip", "uv remove", "uv sync", "uvx"]),
    ],
    &[("docker", &["docker"]), ("podman", &["podman"])],
];

/// PowerShell's approved verbs (`Get-Verb`), the first half of a cmdlet's name: a backticked
/// `Verb-Noun` with one of them is a command (`Stop-Process`, `Remove-Item`).
pub(crate) const POWERSHELL_VERBS: &[&str] = &[
    "add",
    "approve",
    "assert",
    "backup",
    "block",
    "build",
    "checkpoint",
    "clear",
    "close",
    "compare",
    "complete",
    "compress",
    "confirm",
    "connect",
    "convert",
    "convertfrom",
    "convertto",
    "copy",
    "debug",
    "deny",
    "deploy",
    "disable",
    "disconnect",
    "dismount",
    "edit",
    "enable",
    "enter",
    "exit",
    "expand",
    "export",
    "find",
    "format",
    "get",
    "grant",
    "group",
    "hide",
    "import",
    "initialize",
    "install",
    "invoke",
    "join",
    "limit",
    "lock",
    "measure",
    "merge",
    "mount",
    "move",
    "new",
    "open",
    "optimize",
    "out",
    "ping",
    "pop",
    "protect",
    "publish",
    "push",
    "read",
    "receive",
    "redo",
    "register",
    "remove",
    "rename",
    "repair",
    "request",
    "reset",
    "resize",
    "resolve",
    "restart",
    "restore",
    "resume",
    "revoke",
    "save",
    "search",
    "select",
    "send",
    "set",
    "show",
    "skip",
    "split",
    "start",
    "step",
    "stop",
    "submit",
    "suspend",
    "switch",
    "sync",
    "test",
    "trace",
    "unblock",
    "undo",
    "uninstall",
    "unlock",
    "unprotect",
    "unpublish",
    "unregister",
    "update",
    "use",
    "wait",
    "watch",
    "write",
];

/// What people call paste sites, by the words they use for them ("paste sites", "a
/// pastebin"): a rule that names them names each of [`PASTE_SITES`].
pub(crate) const PASTE_SITE_WORDS: &[&str] = &[
    "paste bin",
    "paste bins",
    "paste service",
    "paste services",
    "paste site",
    "paste sites",
    "pastebin",
    "pastebins",
];

/// Paste sites and the hosts they serve raw pastes from (sorted).
pub(crate) const PASTE_SITES: &[&str] = &[
    "0x0.st",
    "controlc.com",
    "dpaste.com",
    "dpaste.org",
    "ghostbin.co",
    "ghostbin.com",
    "gist.githubusercontent.com",
    "hastebin.com",
    "hastebin.skyra.pw",
    "ix.io",
    "justpaste.it",
    "paste.ee",
    "paste.mozilla.org",
    "paste.rs",
    "pastebin.com",
    "pastebin.pl",
    "privatebin.net",
    "rentry.co",
    "rentry.org",
    "sprunge.us",
    "termbin.com",
];

/// Words for what a URL can carry that a rule forbids ("URLs with credentials", "signed
/// URLs"), each with the `url` patterns that find it (see the `url` matcher's pattern forms).
pub(crate) const URL_CARRIES: &[(&str, &[&str])] = &[
    ("access token", &["*?access_token=*", "*?token=*"]),
    ("api key", &["*?api_key=*", "*?apikey=*", "*?key=*"]),
    ("api keys", &["*?api_key=*", "*?apikey=*", "*?key=*"]),
    ("credentials", &["*://*:*@*"]),
    ("password", &["*://*:*@*", "*?password=*"]),
    ("passwords", &["*://*:*@*", "*?password=*"]),
    (
        "pre-signed",
        &[
            "*?x-amz-signature=*",
            "*?x-goog-signature=*",
            "*?sig=*",
            "*?signature=*",
        ],
    ),
    (
        "presigned",
        &[
            "*?x-amz-signature=*",
            "*?x-goog-signature=*",
            "*?sig=*",
            "*?signature=*",
        ],
    ),
    (
        "signatures",
        &[
            "*?x-amz-signature=*",
            "*?x-goog-signature=*",
            "*?sig=*",
            "*?signature=*",
        ],
    ),
    (
        "signed",
        &[
            "*?x-amz-signature=*",
            "*?x-goog-signature=*",
            "*?sig=*",
            "*?signature=*",
        ],
    ),
    ("tokens", &["*?access_token=*", "*?token=*"]),
];

/// Words that make a rule about URLs, for [`URL_CARRIES`].
pub(crate) const URL_WORDS: &[&str] = &["link", "links", "url", "urls"];

/// Services a rule names by their kind ("no Slack webhooks"), each with the hosts (or URLs,
/// with a `/`) a call reaches them at.
pub(crate) const NAMED_SERVICES: &[(&str, &[&str])] = &[
    (
        "discord webhook",
        &["discord.com/api/webhooks", "discordapp.com/api/webhooks"],
    ),
    (
        "discord webhooks",
        &["discord.com/api/webhooks", "discordapp.com/api/webhooks"],
    ),
    ("slack webhook", &["hooks.slack.com"]),
    ("slack webhooks", &["hooks.slack.com"]),
    ("teams webhook", &["webhook.office.com"]),
    ("teams webhooks", &["webhook.office.com"]),
];

/// Participles before "by" that make the command after them what makes an object ("generated
/// by `make gen`", "updated only by `bun install`"), not what the order is about.
pub(crate) const MAKER_PARTICIPLES: &[&str] = &[
    "built",
    "compiled",
    "created",
    "generated",
    "maintained",
    "managed",
    "owned",
    "produced",
    "regenerated",
    "rendered",
    "updated",
    "written",
];

/// Gerunds of git's verbs that, opening a rule, are its subject ("Rebasing always needs my
/// go-ahead" is about `git rebase`), each with its subcommand. Only verbs no other common tool
/// says bare ("pushing" an image is docker's, but a rule that opens on "Pushing" alone is
/// git's).
pub(crate) const GIT_GERUND_SUBJECTS: &[(&str, &str)] = &[
    ("cherry-picking", "cherry-pick"),
    ("force-pushing", "push"),
    ("merging", "merge"),
    ("pushing", "push"),
    ("rebasing", "rebase"),
    ("tagging", "tag"),
];

/// Words after a gerund subject that make it one ("Pushing always needs ...", "Rebasing
/// requires ..."): what follows a subject, not an object ("Pushing images to ...").
pub(crate) const GERUND_SUBJECT_FOLLOWERS: &[&str] = &[
    "always", "is", "must", "needs", "never", "only", "requires", "should",
];
