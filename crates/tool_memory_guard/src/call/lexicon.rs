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

/// Programs that run another program: `sudo rm -rf /` runs both `sudo` and `rm`. Sorted.
pub(crate) const WRAPPERS: &[&str] = &[
    "builtin",
    "caffeinate",
    "chroot",
    "chrt",
    "command",
    "doas",
    "env",
    "eval",
    "exec",
    "flock",
    "ionice",
    "nice",
    "nohup",
    "runuser",
    "setsid",
    "sg",
    "ssh",
    "stdbuf",
    "strace",
    "su",
    "sudo",
    "time",
    "timeout",
    "unbuffer",
    "watch",
    "xargs",
];

/// Per wrapper, its options that take the next word as their value (a cluster ending in one,
/// `sudo -iu root`, does too) and how many arguments it takes before the program it runs
/// (`timeout 5 cmd`, `chroot /srv cmd`, `ssh host cmd`). A wrapper not listed takes neither.
/// Read from each program's manual: an option missing here would make its value read as the
/// program, and the real program go unseen (`timeout -s KILL 5 git push -f`).
pub(crate) const WRAPPER_OPTIONS: &[(&str, &[&str], usize)] = &[
    ("caffeinate", &["-t", "-w"], 0),
    ("chroot", &["--groups", "--userspec"], 1),
    ("chrt", &[], 1),
    ("doas", &["-C", "-u"], 0),
    ("env", &["--chdir", "--unset", "-C", "-u"], 0),
    ("exec", &["-a"], 0),
    (
        "flock",
        &["--conflict-exit-code", "--timeout", "-E", "-w"],
        1,
    ),
    (
        "ionice",
        &["--class", "--classdata", "--pid", "-c", "-n", "-p"],
        0,
    ),
    ("nice", &["--adjustment", "-n"], 0),
    (
        "runuser",
        &["--group", "--supp-group", "--user", "-G", "-g", "-u"],
        0,
    ),
    ("sg", &[], 1),
    (
        "ssh",
        &[
            "-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O",
            "-o", "-p", "-Q", "-R", "-S", "-W", "-w",
        ],
        1,
    ),
    (
        "stdbuf",
        &["--error", "--input", "--output", "-e", "-i", "-o"],
        0,
    ),
    (
        "strace",
        &[
            "-a", "-b", "-E", "-e", "-I", "-O", "-o", "-P", "-p", "-S", "-s", "-u", "-X",
            "--output",
        ],
        0,
    ),
    (
        "su",
        &["--group", "--shell", "--supp-group", "-G", "-g", "-s"],
        0,
    ),
    (
        "sudo",
        &[
            "--chdir",
            "--close-from",
            "--command-timeout",
            "--group",
            "--host",
            "--other-user",
            "--prompt",
            "--role",
            "--type",
            "--user",
            "-C",
            "-D",
            "-g",
            "-h",
            "-p",
            "-R",
            "-r",
            "-T",
            "-t",
            "-U",
            "-u",
        ],
        0,
    ),
    ("time", &["--format", "--output", "-f", "-o"], 0),
    ("timeout", &["--kill-after", "--signal", "-k", "-s"], 1),
    ("watch", &["--interval", "-n"], 0),
    (
        "xargs",
        &[
            "--arg-file",
            "--delimiter",
            "--eof",
            "--max-args",
            "--max-chars",
            "--max-lines",
            "--max-procs",
            "--process-slot-var",
            "--replace",
            "-a",
            "-d",
            "-E",
            "-e",
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
        ],
        0,
    ),
];

/// Words of the shell's own grammar that may open a command: what follows them is the program
/// (`if true; then git push -f; fi`, `! git push -f`, `time git push`).
pub(crate) const SHELL_KEYWORDS: &[&str] =
    &["!", "do", "elif", "else", "if", "then", "until", "while"];

/// Long options that take the next word as their value, for every program (`--namespace
/// prod`, `--context staging`): the value is no subcommand.
/// (Also the program options people put before a subcommand: `helm --kube-context x
/// upgrade`, `npm --prefix web run build`, `yarn --cwd web add`, `pnpm --filter api build`,
/// `docker compose --file x.yml down`.)
pub(crate) const VALUE_FLAGS: &[&str] = &[
    "--bootstrap-server",
    "--chdir",
    "--cluster",
    "--clusters",
    "--context",
    "--cwd",
    "--directory",
    "--env-file",
    "--file",
    "--filter",
    "--git-dir",
    "--host",
    "--kube-context",
    "--kubeconfig",
    "--manifest-path",
    "--namespace",
    "--port",
    "--prefix",
    "--profile",
    "--project",
    "--project-directory",
    "--project-name",
    "--region",
    "--settings",
    "--subscription",
    "--user",
    "--work-tree",
    "--workspace",
];

/// Short options that take the next word as their value, per program (`git -C repo push`,
/// `kubectl -n prod delete`, `psql -h db -c "..."`). A short option means different things
/// to different programs (`-u` is a user to `sudo` and "set upstream" to `git push`; `-n` a
/// namespace to `kubectl` and "no verify" to `git commit`), so only the programs listed read
/// one as taking a value: reading a value where there is none would drop a subcommand
/// (`git push -u origin main` is a push to `origin main`).
/// A key of two words is a program and its subcommand (`docker compose -f x.yml down -v`:
/// compose's `-f`, where `docker rm -f` is a force).
pub(crate) const SHORT_VALUE_FLAGS: &[(&str, &[&str])] = &[
    ("arduino-cli", &["-b", "-p"]),
    ("celery", &["-A", "-b", "-Q"]),
    ("conda", &["-c", "-n", "-p"]),
    ("dbt", &["-s", "-t"]),
    ("fly", &["-a", "-c", "-r"]),
    ("heroku", &["-a", "-r"]),
    ("docker compose", &["-f", "-p"]),
    ("docker-compose", &["-f", "-p"]),
    ("git", &["-c", "-C"]),
    ("head", &["-c", "-n"]),
    ("helm", &["-f", "-n", "-o"]),
    ("kubectl", &["-c", "-f", "-l", "-n", "-o"]),
    ("make", &["-C", "-f"]),
    ("mysql", &["-D", "-e", "-h", "-P", "-u"]),
    ("psql", &["-c", "-d", "-f", "-h", "-p", "-U"]),
    ("redis-cli", &["-a", "-h", "-n", "-p", "-u"]),
    (
        "snowsql",
        &["-a", "-c", "-d", "-f", "-q", "-r", "-s", "-u", "-w"],
    ),
    ("tail", &["-c", "-n"]),
];

/// Clients that read on their input the commands they would take as arguments (`echo FLUSHALL
/// | redis-cli` is `redis-cli flushall`, `psql <<< 'drop table x'` runs the statement): what
/// is fed to them is read as their command. Sorted.
pub(crate) const STDIN_COMMAND_READERS: &[&str] = &[
    "clickhouse-client",
    "cqlsh",
    "duckdb",
    "mariadb",
    "mongo",
    "mongosh",
    "mysql",
    "psql",
    "redis-cli",
    "snowsql",
    "sqlcmd",
    "sqlite3",
    "valkey-cli",
];

/// Package runners that fetch a JavaScript package and run its command: a package named
/// `<cmd>-cli` (`npx eas-cli submit`, `pnpm dlx expo-cli publish`) runs `<cmd>`, as the
/// CLIs published under that name install it (those named otherwise are in
/// `normalize::PACKAGE_BINS`).
pub(crate) const JS_PACKAGE_RUNNERS: &[&str] =
    &["bun", "bunx", "npm", "npx", "pnpm", "pnpx", "yarn"];

/// Runners that take the program to run as their first word after their options.
/// (Laravel's `sail` runs the program named after it in its container: `sail artisan`,
/// `sail composer`; DDEV's `ddev` likewise: `ddev artisan`, `ddev composer`.)
pub(crate) const RUNNERS: &[&str] = &["bunx", "ddev", "npx", "pnpx", "sail", "uvx"];

/// Interpreters that run a script named as their first word (`bash ./deploy.sh`).
pub(crate) const SCRIPT_RUNNERS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "fish", "python", "node", "ruby", "perl", "php", "pwsh", "deno",
    "bun", "tsx", "ts-node",
];

/// Shells whose `-c` (alone or in a cluster: `-lc`, `-ec`) takes a command line as its value:
/// `sh -c yarn` runs `yarn` whether or not the value is quoted.
pub(crate) const COMMAND_SHELLS: &[&str] = &[
    "ash", "bash", "busybox", "csh", "dash", "fish", "ksh", "mksh", "sh", "su", "tcsh", "zsh",
];

/// Options of `find` that run the command after them, up to `;` or `+`.
pub(crate) const FIND_EXEC_OPTIONS: &[&str] = &["-exec", "-execdir", "-ok", "-okdir"];

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

/// Runners that put secrets or an environment around the program they run (issue 21, eighth
/// round): the runner, its subcommand, and how many arguments it takes before the program
/// (`direnv exec DIR cmd`, `aws-vault exec PROFILE -- cmd`); after a `--` the program is next
/// whatever came before (`op run --env-file=.env -- cmd`, `chamber exec svc1 svc2 -- cmd`).
pub(crate) const ENVIRONMENT_RUNNERS: &[(&str, &str, usize)] = &[
    ("aws-vault", "exec", 1),
    ("chamber", "exec", 1),
    ("direnv", "exec", 1),
    ("doppler", "run", 0),
    ("dotenvx", "run", 0),
    ("infisical", "run", 0),
    // mise runs the command after `--` with the tools it names before (`mise exec
    // python@3.12 -- alembic ...`).
    ("mise", "exec", 0),
    ("mise", "x", 0),
    ("op", "run", 0),
    ("teller", "run", 0),
];

/// Keys that hold the command line a shell tool runs, in the agents' own spellings (Claude
/// Code, Codex, Gemini CLI, Cursor, Cline `command`; Windsurf `CommandLine`; `cmd`, `args`).
pub(crate) const COMMAND_KEYS: &[&str] = &[
    "command",
    "cmd",
    "commandline",
    "command_line",
    "script",
    "args",
    "argv",
];

/// Programs that only read, each with the subcommands that only read (none listed: all of
/// them) and the flags that make it write. Used to tell a read of `/etc/hosts` from a write
/// under a rule about writing to `/etc`; a program missing here is taken to change things.
pub(crate) const READ_ONLY_COMMANDS: &[(&str, &[&str], &[&str])] = &[
    ("cat", &[], &[]),
    ("less", &[], &[]),
    ("more", &[], &[]),
    ("head", &[], &[]),
    ("tail", &[], &[]),
    ("bat", &[], &[]),
    ("grep", &[], &[]),
    ("egrep", &[], &[]),
    ("fgrep", &[], &[]),
    ("rg", &[], &[]),
    ("ag", &[], &[]),
    ("ls", &[], &[]),
    ("tree", &[], &[]),
    ("stat", &[], &[]),
    ("file", &[], &[]),
    ("wc", &[], &[]),
    ("du", &[], &[]),
    ("df", &[], &[]),
    ("diff", &[], &[]),
    ("cmp", &[], &[]),
    ("md5sum", &[], &[]),
    ("sha256sum", &[], &[]),
    ("shasum", &[], &[]),
    ("readlink", &[], &[]),
    ("realpath", &[], &[]),
    ("pwd", &[], &[]),
    ("echo", &[], &[]),
    ("printf", &[], &[]),
    ("jq", &[], &[]),
    ("cut", &[], &[]),
    ("uniq", &[], &[]),
    ("nl", &[], &[]),
    ("strings", &[], &[]),
    ("xxd", &[], &[]),
    ("hexdump", &[], &[]),
    ("od", &[], &[]),
    ("which", &[], &[]),
    ("whoami", &[], &[]),
    ("cd", &[], &[]),
    ("sed", &[], &["-i", "--in-place"]),
    ("yq", &[], &["-i", "--inplace"]),
    ("sort", &[], &["-o", "--output"]),
    ("awk", &[], &["-i"]),
    (
        "find",
        &[],
        &[
            "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fls",
        ],
    ),
    (
        "git",
        &[
            "status",
            "log",
            "show",
            "diff",
            "blame",
            "ls-files",
            "ls-tree",
            "grep",
            "rev-parse",
            "describe",
            "shortlog",
            "cat-file",
        ],
        &["--output"],
    ),
    (
        "kubectl",
        &["get", "describe", "logs", "top", "explain"],
        &[],
    ),
    ("docker", &["ps", "images", "logs", "inspect"], &[]),
    ("helm", &["list", "ls", "status", "get", "history"], &[]),
    (
        "redis-cli",
        &[
            "get", "mget", "ttl", "pttl", "keys", "scan", "exists", "type", "strlen", "hget",
            "hgetall", "hkeys", "hlen", "lrange", "llen", "smembers", "scard", "zrange", "zcard",
            "info", "ping", "dbsize",
        ],
        &[],
    ),
    ("aws", &["s3 ls"], &[]),
    ("gsutil", &["ls", "cat"], &[]),
];

/// Shells, which run the command given after `-c`.
pub(crate) const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash", "fish"];

/// Words of a tool's name that say it reads (`read_file`, `list_objects`, `get_issue`).
pub(crate) const READ_TOOL_WORDS: &[&str] = &[
    "read", "get", "list", "view", "search", "fetch", "show", "describe", "find", "cat", "ls",
    "stat", "download",
];

/// Words of a tool's name that say it changes something; with one of them the tool is not
/// read-only whatever else its name says (`get_or_create`, `read_and_delete`).
pub(crate) const WRITE_TOOL_WORDS: &[&str] = &[
    "write", "edit", "delete", "remove", "create", "update", "put", "post", "move", "rename",
    "upload", "set", "patch", "apply", "run", "exec", "execute", "send", "copy", "save", "replace",
    "insert", "drop", "merge", "push",
];

/// Words of keys whose value is a sum of money (`amount`, `refund_amount`, `totalPrice`): what
/// an amount condition ("more than $500") is compared with.
pub(crate) const AMOUNT_KEYS: &[&str] = &[
    "amount", "cost", "fee", "payment", "price", "subtotal", "sum", "total",
];

/// Words of keys, or of a tool's name, that count money in the currency's smallest unit:
/// `amount_cents`, and Stripe's API, whose amounts are in cents.
pub(crate) const MINOR_UNIT_WORDS: &[&str] = &["cents", "minor", "pence", "stripe"];

/// Programs whose quoted arguments are text, not commands: `echo "sudo is not needed"`,
/// `grep "rm -rf" notes.md`, `git commit -m "fix; rm -rf build"`. Their quoted arguments are
/// not read as command lines, unless they hold a substitution the shell runs (`echo
/// "$(rm -rf /)"`).
pub(crate) const TEXT_ARGUMENT_PROGRAMS: &[&str] = &[
    "ag", "echo", "egrep", "fgrep", "git", "grep", "printf", "rg",
];

/// Programs that change or remove the paths they are given and read none of them (for which
/// paths a command writes: `call/paths.rs`). PowerShell's cmdlets lower-case, as a call's
/// program is compared.
pub(crate) const WRITE_ONLY_COMMANDS: &[&str] = &[
    "add-content",
    "chgrp",
    "chmod",
    "chown",
    "clear-content",
    "del",
    "erase",
    "ln",
    "mkdir",
    "mkfifo",
    "new-item",
    "ni",
    "out-file",
    "rd",
    "remove-item",
    "ri",
    "rm",
    "rmdir",
    "set-content",
    "shred",
    "touch",
    "truncate",
    "unlink",
];

/// Programs that read every path they are given but the last, which they write.
pub(crate) const COPY_COMMANDS: &[&str] = &[
    "copy",
    "copy-item",
    "cp",
    "cpi",
    "install",
    "rsync",
    "scp",
    "xcopy",
];

/// Programs that read the paths they are given, besides `READ_ONLY_COMMANDS`: a shell's
/// `source` and `.`, PowerShell's readers.
pub(crate) const SOURCE_COMMANDS: &[&str] = &[
    ".",
    "gc",
    "get-content",
    "select-string",
    "sls",
    "source",
    "type",
];

/// Keys that hold the directory a call's command runs in, in the agents' own spellings
/// (Windsurf `Cwd`, Codex `workdir`, Gemini CLI `dir_path` and `directory`): its relative
/// paths are read against it.
pub(crate) const DIRECTORY_KEYS: &[&str] = &[
    "cwd",
    "dir_path",
    "directory",
    "workdir",
    "working_dir",
    "working_directory",
    "workingdirectory",
];

/// Keys whose string value is a path as a whole, even a bare name without `/` or `.` (`{"path":
/// "customer-data"}` is the directory a search tool reads: Claude Code `Grep`'s `path`, Gemini
/// CLI's `dir_path`, Cline `search_files`' `path`). Compared case-blind.
pub(crate) const PATH_KEYS: &[&str] = &[
    "absolute_path",
    "cwd",
    "dir",
    "dir_path",
    "directory",
    "directorypath",
    "dirpath",
    "file_path",
    "filepath",
    "folder",
    "path",
    "relative_path",
    "search_path",
    "target_directory",
    "targetfile",
    "workdir",
    "working_dir",
    "working_directory",
    "workingdirectory",
];

/// SQL statements that change data or schema: what a read-only database rule ("read-only",
/// "SELECT statements only") forbids.
pub(crate) const SQL_WRITE_STATEMENTS: &[&str] = &[
    "alter", "call", "copy", "create", "delete", "drop", "grant", "insert", "merge", "rename",
    "replace", "revoke", "truncate", "update", "upsert", "vacuum",
];

/// SQL statements that only read: what a statement of an SQL client's command starts with for
/// the call to only read (a psql meta-command, `\dt`, reads too).
pub(crate) const SQL_READ_STATEMENTS: &[&str] = &[
    "describe", "desc", "explain", "select", "show", "table", "values", "with",
];

/// Database clients whose command (`psql -c`, `mysql -e`) is statements: the client reads when
/// they all read.
pub(crate) const SQL_CLIENTS: &[&str] = &["mariadb", "mysql", "psql"];

/// Programs that read when one of their first words is a verb of reading (`gcloud compute
/// instances list`, `gh pr view 12`, `az vm show`) or starts like one (`aws ec2
/// describe-instances`, `aws s3api get-object`), and none is a verb of change: for rules that
/// make a CLI read-only. From each CLI's own command names.
pub(crate) const READ_VERB_COMMANDS: &[(&str, &[&str], &[&str])] = &[
    (
        "aws",
        &["ls", "presign", "wait"],
        &["describe-", "get-", "head-", "list-"],
    ),
    (
        "az",
        &["list", "show", "version"],
        &["get-", "list-", "show-"],
    ),
    (
        "gcloud",
        &[
            "describe",
            "get-iam-policy",
            "get-value",
            "info",
            "list",
            "print-access-token",
            "version",
        ],
        &[],
    ),
    (
        "gh",
        &[
            "checks", "diff", "list", "search", "status", "view", "watch",
        ],
        &[],
    ),
];

/// Subcommands that copy between places, by program (the words of the subcommand, and
/// whether the source is moved, so written too): `aws s3 cp SOURCE TARGET`, `gsutil rsync`,
/// `rclone copy`, `azcopy sync`.
pub(crate) const COPY_SUBCOMMANDS: &[(&str, &[&str], bool)] = &[
    ("aws", &["s3", "cp"], false),
    ("aws", &["s3", "mv"], true),
    ("aws", &["s3", "sync"], false),
    ("azcopy", &["copy"], false),
    ("azcopy", &["sync"], false),
    ("gsutil", &["cp"], false),
    ("gsutil", &["mv"], true),
    ("gsutil", &["rsync"], false),
    ("rclone", &["copy"], false),
    ("rclone", &["copyto"], false),
    ("rclone", &["move"], true),
    ("rclone", &["sync"], false),
];

/// Options of `docker exec`, `docker run` and `docker compose exec|run` (and podman's) that take
/// the next word as their value: skipped to find the container and the command it runs.
pub(crate) const CONTAINER_VALUE_OPTIONS: &[&str] = &[
    "--add-host",
    "--cap-add",
    "--cap-drop",
    "--cpus",
    "--device",
    "--dns",
    "--entrypoint",
    "--env",
    "--env-file",
    "--hostname",
    "--index",
    "--ipc",
    "--label",
    "--link",
    "--log-driver",
    "--log-opt",
    "--memory",
    "--mount",
    "--name",
    "--net",
    "--network",
    "--pid",
    "--platform",
    "--publish",
    "--pull",
    "--restart",
    "--security-opt",
    "--tmpfs",
    "--ulimit",
    "--user",
    "--volume",
    "--volumes-from",
    "--workdir",
    "-e",
    "-h",
    "-l",
    "-m",
    "-p",
    "-u",
    "-v",
    "-w",
];

/// Options of `kubectl exec` that take the next word as their value.
pub(crate) const KUBECTL_EXEC_VALUE_OPTIONS: &[&str] =
    &["--container", "--context", "--namespace", "-c", "-n"];

/// The programs of `WRITE_ONLY_COMMANDS` that may make the path they are given (`touch`,
/// `mkdir`, PowerShell's `New-Item`), where the others change or remove what exists.
pub(crate) const CREATING_COMMANDS: &[&str] = &[
    "ln",
    "mkdir",
    "mkfifo",
    "new-item",
    "ni",
    "out-file",
    "set-content",
    "touch",
];

/// Environment variables that give a program's option, per program: `AWS_PROFILE=sandbox aws
/// ...` is `aws --profile sandbox ...`. A variable whose value is options (`GOFLAGS=-mod=vendor
/// go build`) is listed with an empty option: its words are read as the command's own.
pub(crate) const ENVIRONMENT_OPTIONS: &[(&str, &str, &str)] = &[
    ("aws", "AWS_DEFAULT_REGION", "--region"),
    ("aws", "AWS_PROFILE", "--profile"),
    ("aws", "AWS_REGION", "--region"),
    ("az", "AZURE_SUBSCRIPTION_ID", "--subscription"),
    ("dbt", "DBT_TARGET", "--target"),
    ("gcloud", "CLOUDSDK_COMPUTE_REGION", "--region"),
    ("gcloud", "CLOUDSDK_COMPUTE_ZONE", "--zone"),
    ("gcloud", "CLOUDSDK_CORE_ACCOUNT", "--account"),
    ("gcloud", "CLOUDSDK_CORE_PROJECT", "--project"),
    ("go", "GOFLAGS", ""),
    ("helm", "HELM_KUBECONTEXT", "--context"),
    ("helm", "HELM_NAMESPACE", "--namespace"),
    ("kubectl", "KUBECONFIG", "--kubeconfig"),
    ("pytest", "PYTEST_ADDOPTS", ""),
];
