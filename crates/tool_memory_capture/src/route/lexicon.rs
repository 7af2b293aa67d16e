//! The words that tell which family of tool a rule is about: programs a shell runs, actions only
//! a shell performs, and the verbs and nouns of editing, reading, fetching and searching. Data
//! only; `route.rs` reads it. Every list is lower-case and matched as whole words (a word may
//! carry an inflection: `pushes`, `committing`).

/// Programs people name in rules for a coding agent, Unix's and Windows' (`winget`,
/// `taskkill`). Named anywhere (in prose or in a code span) they put the rule on the agent's
/// shell tool. Words that are also plain English verbs or
/// nouns (`make`, `go`, `find`, `kind`, `env`, `next`, `cat`) are in [`CODE_ONLY_PROGRAMS`].
pub(crate) const PROGRAMS: &[&str] = &[
    "alembic",
    "ansible",
    "apt",
    "apt-get",
    "argocd",
    "artisan",
    "aws",
    "az",
    "bcdedit",
    "bun",
    "bundle",
    "bunx",
    "cargo",
    "chmod",
    "choco",
    "chown",
    "cmake",
    "composer",
    "conda",
    "crontab",
    "curl",
    "deno",
    "diskpart",
    "dnf",
    "docker",
    "docker-compose",
    "dotnet",
    "firebase",
    "flutter",
    "flyway",
    "gcloud",
    "gh",
    "git",
    "gradle",
    "gradlew",
    "helm",
    "heroku",
    "icacls",
    "kubectl",
    "kustomize",
    "liquibase",
    "minikube",
    "msiexec",
    "mvn",
    "mysql",
    "netlify",
    "netsh",
    "nohup",
    "npm",
    "npx",
    "nuget",
    "pip",
    "pip3",
    "pipx",
    "pkill",
    "pnpm",
    "podman",
    "poetry",
    "powershell",
    "prisma",
    "psql",
    "pwsh",
    "pytest",
    "python",
    "python3",
    "rails",
    "rake",
    "redis-cli",
    "robocopy",
    "rsync",
    "ruff",
    "rustup",
    "schtasks",
    "scoop",
    "scp",
    "setx",
    "skaffold",
    "sqlite3",
    "ssh",
    "sudo",
    "systemctl",
    "taskkill",
    "terraform",
    "tofu",
    "uv",
    "uvx",
    "vault",
    "vercel",
    "wget",
    "winget",
    "wmic",
    "wrangler",
    "xargs",
    "yarn",
    "yum",
];

/// Programs whose names are also ordinary words: they count only as the first word of a code
/// span (`make deploy`, `cat ~/.ssh/id_rsa`).
pub(crate) const CODE_ONLY_PROGRAMS: &[&str] = &[
    "attrib", "awk", "bash", "cat", "chmod", "cp", "curl", "del", "echo", "env", "fd", "find",
    "format", "go", "grep", "head", "jq", "kill", "killall", "kind", "ls", "make", "mklink", "mv",
    "next", "node", "php", "rd", "reg", "rg", "rm", "rmdir", "sc", "sed", "sh", "tail", "tar",
    "time", "touch", "wget", "xargs", "zsh",
];

/// Windows programs: a rule about one goes to PowerShell when the agent has it beside another
/// shell. Named anywhere.
pub(crate) const WINDOWS_PROGRAMS: &[&str] = &[
    "bcdedit", "choco", "diskpart", "icacls", "msiexec", "netsh", "robocopy", "schtasks", "scoop",
    "setx", "taskkill", "winget", "wmic",
];

/// Windows programs whose names are also ordinary words or Unix ones: only as the first word
/// of a code span (`reg add`, `sc stop`).
pub(crate) const WINDOWS_CODE_ONLY_PROGRAMS: &[&str] =
    &["attrib", "del", "format", "mklink", "rd", "reg", "sc"];

/// Actions that only a shell performs in a coding agent: version control, package and process
/// management, deployment.
pub(crate) const SHELL_VERBS: &[&str] = &[
    // The same verbs in the other languages instruction files mix in (Spanish, German,
    // French), in the forms an order or a passive ban takes ("nunca ejecutes", "wird nie
    // committet", "ne lance jamais").
    "ejecutar",
    "ejecutes",
    "ejecuta",
    "desplegar",
    "despliegues",
    "ausführen",
    "committen",
    "committet",
    "pushen",
    "gepusht",
    "deployen",
    "lancer",
    "lance",
    "exécuter",
    "exécute",
    "exécutez",
    "déployer",
    "pousser",
    "run",
    "execute",
    "exec",
    "install",
    "uninstall",
    "commit",
    "push",
    "force-push",
    "pull",
    "merge",
    "rebase",
    "squash",
    "stash",
    "tag",
    "deploy",
    "publish",
    "kill",
    "restart",
    "reboot",
    "migrate",
    "pipe",
    "cherry-pick",
    "checkout",
    "amend",
    "upgrade",
    "downgrade",
    "rollback",
    "release",
    "ship",
    // Files leave the machine through `curl`, `scp` or a cloud CLI.
    "upload",
];

/// Things that live behind a shell.
pub(crate) const SHELL_NOUNS: &[&str] = &[
    "terminal",
    // Scheduled jobs and what runs them: "Cron jobs in production are not to be paused"; a
    // scheduler's MCP tool is found by its name first.
    "cron",
    "crontab",
    "cronjob",
    "cronjobs",
    "systemd",
    "timer",
    "timers",
    "worker",
    "workers",
    // Pull requests are opened and merged with `gh` or `git` when no tool does it.
    "pr",
    "prs",
    // With no database tool in the catalogue, SQL goes through the shell (`psql`, `mysql`);
    // the alias table finds a database tool first when there is one.
    "sql",
    "pipeline",
    "pipelines",
    "command",
    "commands",
    "script",
    "scripts",
    "branch",
    "branches",
    "history",
    "hooks",
    // Commit trailers (`Co-Authored-By`, `Signed-off-by`) are written by `git commit`.
    "trailer",
    "trailers",
    "migration",
    "migrations",
    // With no database tool, a database is dropped or reset through the shell.
    "database",
    "databases",
    "server",
    "servers",
    "process",
    "processes",
    "container",
    "containers",
    "pod",
    "pods",
    "cluster",
    "namespace",
    "linter",
    "sudo",
    "shell",
    "cli",
    "lockfile",
    "dependencies",
    "dependency",
    "package",
    "packages",
    "suite",
];

/// Things an edit verb can act on that live behind the shell, not in a file: "delete remote
/// branches", "change the namespace".
pub(crate) const SHELL_OBJECTS: &[&str] = &[
    "branch",
    "branches",
    "tag",
    "tags",
    "commit",
    "commits",
    "container",
    "containers",
    "pod",
    "pods",
    "process",
    "processes",
    "server",
    "servers",
    "history",
    "cluster",
    "namespace",
    "remote",
    // Machines and what runs on them: "touch the staging host", "disable the firewall". Not
    // a database or a service, which code mocks and calls ("don't mock the database").
    "firewall",
    "daemon",
    "host",
    "hosts",
    "instance",
    "instances",
    "machine",
    "machines",
    "node",
    "nodes",
    "vm",
    "vms",
    "volume",
    "volumes",
    "bucket",
    "buckets",
];

/// Things a name in a code span can stand before that live behind the shell: "the
/// `payments` namespace", "the `main` branch", "the `prod` kube context", "the
/// `shop-prod-31` project" (a cloud project, subscription or tenant).
pub(crate) const NAMED_SHELL_THINGS: &[&str] = &[
    "account",
    "branch",
    "branches",
    "bucket",
    "cluster",
    "container",
    "context",
    "database",
    "db",
    "environment",
    "namespace",
    "pod",
    "profile",
    "project",
    "queue",
    "remote",
    "resource-group",
    "schema",
    "service",
    "stack",
    "subscription",
    "table",
    "tag",
    "tenant",
    "topic",
];

/// The objects of an edit verb that a package manager handles ("add a dependency"), unless a
/// file is named.
pub(crate) const DEPENDENCY_WORDS: &[&str] =
    &["dependencies", "dependency", "deps", "package", "packages"];

/// Places in the code a rule can name after "in": "No raw SQL in controllers", "No network
/// calls in unit tests". Such a rule is about editing the code.
pub(crate) const CODE_PLACES: &[&str] = &[
    "code",
    "components",
    "controllers",
    "handlers",
    "models",
    "source",
    "templates",
    "tests",
    "views",
];

/// The keywords of SQL a code span of SQL opens with.
pub(crate) const SQL_KEYWORDS: &[&str] = &[
    "ALTER", "BEGIN", "COPY", "CREATE", "DELETE", "DROP", "EXPLAIN", "GRANT", "INSERT", "LIMIT",
    "MERGE", "REPLACE", "REVOKE", "SELECT", "TRUNCATE", "UPDATE", "UPSERT", "VACUUM", "WHERE",
    "WITH",
];

/// Changing files or code.
pub(crate) const EDIT_VERBS: &[&str] = &[
    "edit",
    "modify",
    "change",
    "add",
    "delete",
    "remove",
    "rename",
    "refactor",
    "reformat",
    "hardcode",
    "patch",
    "mock",
    "bump",
    "replace",
    "prefer",
    "import",
    "catch",
    "comment",
    "inline",
    "insert",
    "include",
    "expose",
    "embed",
    // "Don't touch billing", "never disable security features": what the code does; a thing
    // behind the shell as the object ("touch the staging db", "disable the firewall") makes
    // them the shell's.
    "touch",
    "disable",
    "reflow",
    // Spanish, German, French ("no edites", "wird nie bearbeitet", "ne modifie jamais").
    "editar",
    "edites",
    "modificar",
    "modifiques",
    "toques",
    "borrar",
    "borres",
    "bearbeiten",
    "bearbeitet",
    "ändern",
    "geändert",
    "verändern",
    "verändert",
    "löschen",
    "gelöscht",
    "modifier",
    "modifie",
    "modifié",
    "modifiez",
    "supprimer",
    "supprime",
    "supprimes",
    "supprimez",
    "eliminar",
    "elimines",
    "lösche",
    // The act named as a noun: "If deletion seems necessary, ask first".
    "deletion",
    "removal",
];

/// Beginnings of the words of [`EDIT_VERBS`] that delete (English, Spanish, French, German):
/// a deletion goes to a delete tool, and to the shell (`rm`) when no tool deletes files.
pub(crate) const DELETE_STEMS: &[&str] = &[
    "borr", "delet", "elimin", "gelösch", "lösch", "remov", "supprim",
];

/// Words that say a thing is files a tool made or a vendor shipped ("the generated server
/// stubs"): after an edit verb, what follows is edited, not a thing behind the shell.
pub(crate) const FILE_ORIGINS: &[&str] = &["compiled", "generated", "minified", "vendored"];

/// Things behind the shell that are also files an edit changes: after one, an edit verb
/// says what the rule does ("| Migrations | Never edit a merged migration |").
pub(crate) const FILE_SHELL_NOUNS: &[&str] =
    &["lockfile", "migration", "migrations", "script", "scripts"];

/// Making new files: these go to a write tool when the agent has one apart from its edit tool.
pub(crate) const CREATE_VERBS: &[&str] = &[
    "create",
    "write",
    "generate",
    "regenerate",
    "scaffold",
    "overwrite",
    "rewrite",
];

/// Nouns of code and files.
pub(crate) const EDIT_NOUNS: &[&str] = &[
    "file",
    "files",
    "folder",
    "directory",
    "imports",
    "functions",
    "function",
    "class",
    "classes",
    "comments",
    "snapshots",
    "types",
    // What styles a page is written in its files: "CSS: Tailwind only".
    "css",
    "styling",
    "stylesheet",
    "stylesheets",
];

/// Reading files.
pub(crate) const READ_VERBS: &[&str] = &["read", "view"];

/// Fetching pages.
pub(crate) const FETCH_WORDS: &[&str] = &["fetch", "download", "url", "urls", "webpage", "browse"];

/// Searching the web.
pub(crate) const SEARCH_WORDS: &[&str] = &["search", "google", "look up"];

/// Inflections a lexicon word may carry.
pub(crate) const SUFFIXES: &[&str] = &[
    "", "s", "es", "ing", "ed", "d", "ting", "ted", "ping", "ped", "ging", "ged", "ming", "med",
    "ning",
];

/// Tool names that are plain English verbs (Claude Code's `Read`, `Edit`, `Write`, Gemini CLI's
/// `replace`, `Task`): the word names the action, not the tool, so it is read as family evidence
/// rather than as naming the tool.
pub(crate) const VERB_TOOL_NAMES: &[&str] = &["read", "edit", "write", "replace", "task"];
