//! Word lists of the normal forms: the top-level domains read as hosts, per-program flag
//! spellings, and the programs installed under versioned names.

/// Top-level domains the guard recognises in prose. A closed list, because a dotted word is
/// far more often a file (`config.yaml`, `main.rs`) than a host; file-like endings that are
/// also country codes (`.rs`, `.py`, `.sh`, `.md`) are deliberately left out.
pub(crate) const TLDS: &[&str] = &[
    "com",
    "org",
    "net",
    "io",
    "dev",
    "co",
    "uk",
    "de",
    "fr",
    "ai",
    "app",
    "edu",
    "gov",
    "mil",
    "internal",
    "local",
    "corp",
    "lan",
    "intra",
    "us",
    "eu",
    "ca",
    "au",
    "info",
    "biz",
    "me",
    "cloud",
    "example",
    "test",
    "xyz",
    "tech",
    "jp",
    "cn",
    "in",
    "nl",
    "se",
    "ch",
    "es",
    "it",
    "br",
    "ie",
    "nz",
    "at",
    "be",
    "dk",
    "no",
    "fi",
    "pl",
    "tv",
    "gg",
    "so",
    "to",
    "site",
    "online",
    "ly",
    "ru",
    "su",
    "ua",
    "cc",
    "vc",
    "ws",
    "gl",
    "fm",
    "top",
    "club",
    "live",
    "news",
    "pro",
    "link",
    "store",
    "shop",
    "page",
    "email",
    "invalid",
    "localhost",
    "svc",
    "cluster",
];

/// Per-program spellings of the same flag, mapped to one canonical spelling. Kept small and
/// scoped to the program: `-f` means `--force` for `rm` and `git push`, but "file" for `tar`.
pub(crate) const FLAG_ALIASES: &[(&str, &str, &str)] = &[
    ("rm", "--recursive", "-r"),
    ("rm", "--force", "-f"),
    ("cp", "--recursive", "-r"),
    ("chmod", "--recursive", "-r"),
    ("chown", "--recursive", "-r"),
    ("scp", "--recursive", "-r"),
    ("git", "-f", "--force"),
    ("docker", "-f", "--force"),
    ("terraform", "--auto-approve", "-auto-approve"),
    ("git", "-d", "--delete"),
    ("helm", "-n", "--namespace"),
    // helm's name for kubectl's `--context`: "always pass `--context X` to kubectl and helm".
    ("helm", "--kube-context", "--context"),
    ("kubectl", "-n", "--namespace"),
    ("npm", "-f", "--force"),
    ("pg_restore", "-c", "--clean"),
    // dbt's and PlatformIO's `-t` is `--target` in every subcommand; electron-builder's `-p`
    // is `--publish`.
    ("dbt", "-t", "--target"),
    ("pio", "-t", "--target"),
    ("electron-builder", "-p", "--publish"),
    // Salesforce's `sf` takes `-o` for `--target-org` in every command; snowsql's `-r` is
    // `--rolename`; Maven's `-Dmaven.test.skip=true` skips the tests as `-DskipTests` does
    // (and their compiling too).
    ("sf", "-o", "--target-org"),
    ("snowsql", "-r", "--rolename"),
    // Heroku's and Fly's `-a` is `--app` in every command; `nix-collect-garbage -d` is
    // `--delete-old`.
    ("fly", "-a", "--app"),
    ("heroku", "-a", "--app"),
    ("nix-collect-garbage", "-d", "--delete-old"),
    // Documented variants of one option, which do what it does another way: bazel's
    // `--expunge_async` expunges as `--expunge` does, in the background. Not a prefix rule
    // (`--force-with-lease` is not `--force`).
    ("bazel", "--expunge_async", "--expunge"),
    ("mvn", "-Dmaven.test.skip=true", "-DskipTests"),
    ("mvn", "-Dmaven.test.skip", "-DskipTests"),
    ("mvn", "-DskipTests=true", "-DskipTests"),
    // Short flags keep their case (`git branch -d` deletes a merged branch, `-D` any branch);
    // where a program reads both cases as one flag, the capital is listed here.
    ("rm", "-R", "-r"),
    ("cp", "-R", "-r"),
    ("chmod", "-R", "-r"),
    ("chown", "-R", "-r"),
    ("chgrp", "-R", "-r"),
    // The common CLIs' documented short forms of long options (issue 21, twelfth round, P5),
    // where the short form means the same in every subcommand.
    ("ansible-playbook", "-C", "--check"),
    ("ansible-playbook", "-i", "--inventory"),
    ("ansible-playbook", "-l", "--limit"),
    ("bun", "-g", "--global"),
    ("cargo", "-p", "--package"),
    ("curl", "-X", "--request"),
    ("curl", "-k", "--insecure"),
    ("gh", "-R", "--repo"),
    ("helm", "-f", "--values"),
    ("kubectl", "-A", "--all-namespaces"),
    ("kubectl", "-f", "--filename"),
    ("kubectl", "-l", "--selector"),
    ("npm", "-D", "--save-dev"),
    ("npm", "-g", "--global"),
    ("pip", "-U", "--upgrade"),
    ("pnpm", "-D", "--save-dev"),
    ("pnpm", "-g", "--global"),
    ("pytest", "-x", "--exitfirst"),
    ("rsync", "-n", "--dry-run"),
    ("wget", "-O", "--output-document"),
];

/// Short flags whose meaning depends on the subcommand, per program and subcommand: `git
/// commit -n` is `--no-verify` where `git push -n` is `--dry-run`.
pub(crate) const SUBCOMMAND_FLAG_ALIASES: &[(&str, &str, &str, &str)] = &[
    ("conda", "clean", "-a", "--all"),
    ("conda", "remove", "-a", "--all"),
    ("docker", "container", "-a", "--all"),
    ("docker", "down", "-v", "--volumes"),
    ("docker", "image", "-a", "--all"),
    ("docker", "images", "-a", "--all"),
    ("docker", "prune", "-a", "--all"),
    ("docker", "ps", "-a", "--all"),
    ("docker", "system", "-a", "--all"),
    ("docker", "volume", "-a", "--all"),
    ("dvc", "gc", "-c", "--cloud"),
    ("dvc", "gc", "-w", "--workspace"),
    ("git", "add", "-n", "--dry-run"),
    ("git", "branch", "-l", "--list"),
    ("git", "clean", "-n", "--dry-run"),
    ("git", "commit", "-n", "--no-verify"),
    ("git", "commit", "-s", "--signoff"),
    ("git", "push", "-n", "--dry-run"),
    ("git", "tag", "-l", "--list"),
];

/// Short flags that stand for several long ones, per program: `git branch -D` is `--delete
/// --force`, so a rule on `-D` holds for `-d --force` too, and a rule on `-d` (`--delete`) for
/// `-D`. Each is compared as the set of flags it stands for.
pub(crate) const FLAG_MEANINGS: &[(&str, &str, &[&str])] = &[
    ("git", "-D", &["--delete", "--force"]),
    ("git", "-M", &["--move", "--force"]),
];

/// Programs installed under versioned names, whose version says nothing about what they do.
pub(crate) const VERSIONED_PROGRAMS: &[&str] = &["pip", "python", "ruby", "node", "perl", "php"];

/// Per-program short names of subcommands, mapped to the subcommand's full name, from each
/// program's documentation (`npm help install` lists `i`, `add`, `in`, ... and the misspelling
/// `isntall`): `npm i` is `npm install`, `helm delete` is `helm uninstall`. Sorted.
pub(crate) const SUBCOMMAND_ALIASES: &[(&str, &str, &str)] = &[
    ("cargo", "b", "build"),
    ("cargo", "c", "check"),
    ("cargo", "d", "doc"),
    ("cargo", "r", "run"),
    ("cargo", "t", "test"),
    ("hdfs", "fs", "dfs"),
    ("helm", "del", "uninstall"),
    ("helm", "delete", "uninstall"),
    ("helm", "ls", "list"),
    ("helm", "un", "uninstall"),
    ("npm", "add", "install"),
    ("npm", "i", "install"),
    ("npm", "in", "install"),
    ("npm", "ins", "install"),
    ("npm", "inst", "install"),
    ("npm", "insta", "install"),
    ("npm", "instal", "install"),
    ("npm", "isnt", "install"),
    ("npm", "isnta", "install"),
    ("npm", "isntal", "install"),
    ("npm", "isntall", "install"),
    ("npm", "r", "uninstall"),
    ("npm", "remove", "uninstall"),
    ("npm", "rm", "uninstall"),
    ("npm", "t", "test"),
    ("npm", "un", "uninstall"),
    ("npm", "unlink", "uninstall"),
    ("npm", "x", "exec"),
    ("pnpm", "i", "install"),
    ("pnpm", "rm", "remove"),
    ("pnpm", "t", "test"),
    ("pnpm", "un", "remove"),
    ("pnpm", "uninstall", "remove"),
];

/// Packages whose command has another name, for what a package runner runs (`npx
/// firebase-tools deploy` runs `firebase deploy`, `npx @angular/cli build` runs `ng build`).
/// Sorted.
pub(crate) const PACKAGE_BINS: &[(&str, &str)] = &[
    ("@angular/cli", "ng"),
    ("@nestjs/cli", "nest"),
    ("@railway/cli", "railway"),
    ("@vue/cli", "vue"),
    ("aws-cdk", "cdk"),
    ("firebase-tools", "firebase"),
    ("netlify-cli", "netlify"),
    ("sequelize-cli", "sequelize"),
    ("typescript", "tsc"),
    ("vercel-cli", "vercel"),
];

/// Programs that are another program under another name, with the subcommand words the name
/// stands for: `docker-compose` is `docker compose`, `./mvnw` is `mvn`, `terragrunt` runs
/// `terraform`'s commands, `artisan` is `php artisan`, `taskkill` stops a process as `kill`
/// does, `setx` sets an environment variable as PowerShell's
/// `[Environment]::SetEnvironmentVariable` does. Sorted. (PowerShell's cmdlets are in
/// [`POWERSHELL_CMDLETS`].)
pub(crate) const PROGRAM_EQUIVALENTS: &[(&str, &str, &[&str])] = &[
    ("[environment]::setenvironmentvariable", "setx", &[]),
    ("artisan", "php", &["artisan"]),
    // Other names of a program: bazelisk runs bazel; composer is `php composer.phar` (as
    // artisan is `php artisan`), however it is called.
    ("bazelisk", "bazel", &[]),
    ("composer", "php", &["composer.phar"]),
    ("composer.phar", "php", &["composer.phar"]),
    ("del", "rm", &[]),
    ("docker-compose", "docker", &["compose"]),
    ("erase", "rm", &[]),
    ("flyctl", "fly", &[]),
    ("gradlew", "gradle", &[]),
    // `hadoop fs` is `hdfs dfs` (the subcommand is compared through `SUBCOMMAND_ALIASES`).
    ("hadoop", "hdfs", &[]),
    // The aliases the tools' own docs suggest: `alias k=kubectl`, `alias tf=terraform`.
    ("k", "kubectl", &[]),
    ("mamba", "conda", &[]),
    ("micromamba", "conda", &[]),
    ("mvnw", "mvn", &[]),
    ("platformio", "pio", &[]),
    ("podman-compose", "podman", &["compose"]),
    ("ri", "rm", &[]),
    ("spps", "kill", &[]),
    ("taskkill", "kill", &[]),
    ("terragrunt", "terraform", &[]),
    ("tf", "terraform", &[]),
];

/// What a PowerShell parameter does: sets a flag (in the spelling of the program the cmdlet is
/// compared as), takes the value the cmdlet's first positional argument is (`-Path`), or takes
/// another value (`-Scope CurrentUser`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PsParameter {
    Flag(&'static str),
    Positional,
    Value,
}

/// A cmdlet's parameters, each with what it does.
pub(crate) type CmdletParameters = &'static [(&'static str, PsParameter)];

/// PowerShell's cmdlets that do what a Unix program does, compared as that program (`Remove-Item
/// -Recurse -Force` is `rm -r -f`), and those compared as themselves; each with its parameters,
/// which PowerShell reads case-blind and by any unique prefix (`-r` is `-Recurse`, `-fo`
/// `-Force`). Their aliases (`ri`, `rm`, `del`, `kill`, `spps`) are programs of their own or
/// [`PROGRAM_EQUIVALENTS`]. Sorted.
pub(crate) const POWERSHELL_CMDLETS: &[(&str, &str, CmdletParameters)] = &[
    (
        "copy-item",
        "cp",
        &[
            ("container", PsParameter::Flag("--parents")),
            ("credential", PsParameter::Value),
            ("destination", PsParameter::Positional),
            ("exclude", PsParameter::Value),
            ("filter", PsParameter::Value),
            ("force", PsParameter::Flag("-f")),
            ("include", PsParameter::Value),
            ("literalpath", PsParameter::Positional),
            ("passthru", PsParameter::Flag("--passthru")),
            ("path", PsParameter::Positional),
            ("recurse", PsParameter::Flag("-r")),
        ],
    ),
    (
        "get-content",
        "cat",
        &[
            ("encoding", PsParameter::Value),
            ("literalpath", PsParameter::Positional),
            ("path", PsParameter::Positional),
            ("raw", PsParameter::Flag("--raw")),
            ("tail", PsParameter::Value),
            ("totalcount", PsParameter::Value),
        ],
    ),
    (
        "move-item",
        "mv",
        &[
            ("destination", PsParameter::Positional),
            ("force", PsParameter::Flag("-f")),
            ("literalpath", PsParameter::Positional),
            ("path", PsParameter::Positional),
        ],
    ),
    (
        "remove-item",
        "rm",
        &[
            ("credential", PsParameter::Value),
            ("exclude", PsParameter::Value),
            ("filter", PsParameter::Value),
            ("force", PsParameter::Flag("-f")),
            ("include", PsParameter::Value),
            ("literalpath", PsParameter::Positional),
            ("path", PsParameter::Positional),
            ("recurse", PsParameter::Flag("-r")),
            ("stream", PsParameter::Value),
        ],
    ),
    (
        "set-executionpolicy",
        "set-executionpolicy",
        &[
            ("executionpolicy", PsParameter::Positional),
            ("force", PsParameter::Flag("-force")),
            ("scope", PsParameter::Value),
        ],
    ),
    (
        "stop-process",
        "kill",
        &[
            ("force", PsParameter::Flag("-f")),
            ("id", PsParameter::Positional),
            ("inputobject", PsParameter::Value),
            ("name", PsParameter::Positional),
            ("passthru", PsParameter::Flag("--passthru")),
        ],
    ),
];

/// The parameters every cmdlet takes, which count when a prefix is unique.
pub(crate) const POWERSHELL_COMMON_PARAMETERS: &[&str] = &[
    "confirm",
    "debug",
    "erroraction",
    "errorvariable",
    "informationaction",
    "informationvariable",
    "outbuffer",
    "outvariable",
    "pipelinevariable",
    "progressaction",
    "verbose",
    "warningaction",
    "warningvariable",
    "whatif",
];

/// Package managers that run a package script named as their first word (`pnpm db:reset` is
/// `pnpm run db:reset`), each with its own commands, which are not scripts. From each
/// program's documentation; sorted.
pub(crate) const SCRIPT_RUNNING_MANAGERS: &[(&str, &[&str])] = &[
    (
        "bun",
        &[
            "add", "build", "create", "exec", "init", "install", "link", "outdated", "patch", "pm",
            "publish", "remove", "repl", "run", "test", "unlink", "update", "upgrade", "x",
        ],
    ),
    (
        "pnpm",
        &[
            "add",
            "approve-builds",
            "audit",
            "bin",
            "cache",
            "cat-file",
            "cat-index",
            "config",
            "create",
            "dedupe",
            "deploy",
            "dlx",
            "doctor",
            "env",
            "exec",
            "fetch",
            "find-hash",
            "help",
            "i",
            "ignored-builds",
            "import",
            "init",
            "install",
            "install-test",
            "licenses",
            "link",
            "list",
            "ll",
            "ls",
            "outdated",
            "pack",
            "patch",
            "patch-commit",
            "patch-remove",
            "prune",
            "publish",
            "rb",
            "rebuild",
            "recursive",
            "remove",
            "restart",
            "rm",
            "root",
            "run",
            "self-update",
            "server",
            "setup",
            "start",
            "store",
            "t",
            "test",
            "un",
            "uninstall",
            "unlink",
            "up",
            "update",
            "upgrade",
            "why",
        ],
    ),
    (
        "yarn",
        &[
            "add",
            "audit",
            "autoclean",
            "bin",
            "cache",
            "check",
            "config",
            "constraints",
            "create",
            "dedupe",
            "dlx",
            "exec",
            "explain",
            "generate-lock-entry",
            "global",
            "help",
            "import",
            "info",
            "init",
            "install",
            "licenses",
            "link",
            "list",
            "login",
            "logout",
            "node",
            "npm",
            "outdated",
            "owner",
            "pack",
            "patch",
            "plugin",
            "policies",
            "publish",
            "rebuild",
            "remove",
            "run",
            "set",
            "stage",
            "tag",
            "team",
            "test",
            "unlink",
            "unplug",
            "up",
            "upgrade",
            "upgrade-interactive",
            "version",
            "versions",
            "why",
            "workspace",
            "workspaces",
        ],
    ),
];

/// Programs given any number of tasks or goals at once, in any order (`mvn clean
/// release:prepare release:perform`, `./gradlew build publish`, `make clean install`): a
/// command names one of them wherever it stands.
pub(crate) const MULTI_TASK_PROGRAMS: &[&str] = &["gradle", "make", "mix", "mvn"];

/// Subcommands of a program's that run a command of another group: `docker compose down`'s
/// flags are `down`'s, `terragrunt run-all apply` runs `apply` (and is read without
/// `run-all`).
pub(crate) const COMMAND_GROUPS: &[(&str, &str)] = &[
    ("docker", "compose"),
    ("docker", "container"),
    ("docker", "image"),
    ("docker", "network"),
    ("docker", "system"),
    ("docker", "volume"),
    ("podman", "compose"),
];

/// One operation spelled two ways by a program: `terraform apply -destroy` is `terraform
/// destroy`, `conda remove -n x --all` is `conda env remove -n x`. Each is (program, the words
/// a call gives, the flag it gives with them, the words of the operation they spell). A rule on
/// either spelling holds for both.
pub(crate) const OPERATION_SPELLINGS: &[(&str, &[&str], &str, &[&str])] = &[
    ("conda", &["remove"], "--all", &["env", "remove"]),
    // `docker buildx build --push -t acme/api .` pushes the image it builds.
    ("docker", &["buildx", "build"], "--push", &["push"]),
    ("docker", &["build"], "--push", &["push"]),
    ("terraform", &["apply"], "-destroy", &["destroy"]),
    ("terraform", &["plan"], "-destroy", &["plan", "destroy"]),
];

/// kubectl's resource types under their short names and plurals (`kubectl api-resources`),
/// mapped to the singular full name, so that `kubectl delete deploy api` is `kubectl delete
/// deployment api`. Sorted.
pub(crate) const KUBECTL_RESOURCES: &[(&str, &str)] = &[
    ("cj", "cronjob"),
    ("clusterroles", "clusterrole"),
    ("cm", "configmap"),
    ("configmaps", "configmap"),
    ("crd", "customresourcedefinition"),
    ("crds", "customresourcedefinition"),
    ("cronjobs", "cronjob"),
    ("daemonsets", "daemonset"),
    ("deploy", "deployment"),
    ("deployments", "deployment"),
    ("ds", "daemonset"),
    ("ep", "endpoints"),
    ("hpa", "horizontalpodautoscaler"),
    ("ing", "ingress"),
    ("ingresses", "ingress"),
    ("jobs", "job"),
    ("namespaces", "namespace"),
    ("netpol", "networkpolicy"),
    ("no", "node"),
    ("nodes", "node"),
    ("ns", "namespace"),
    ("pdb", "poddisruptionbudget"),
    ("persistentvolumeclaims", "persistentvolumeclaim"),
    ("persistentvolumes", "persistentvolume"),
    ("po", "pod"),
    ("pods", "pod"),
    ("pv", "persistentvolume"),
    ("pvc", "persistentvolumeclaim"),
    ("replicasets", "replicaset"),
    ("roles", "role"),
    ("rs", "replicaset"),
    ("sa", "serviceaccount"),
    ("secrets", "secret"),
    ("serviceaccounts", "serviceaccount"),
    ("services", "service"),
    ("statefulsets", "statefulset"),
    ("sts", "statefulset"),
    ("svc", "service"),
];

/// Extensions of script files (a script is compared as its name without one: `program_name`).
pub(crate) const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "py", "rb", "pl", "js", "mjs", "cjs", "ts", "php", "ps1",
];
