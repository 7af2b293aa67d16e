//! Derivation's word lists about things a rule names by kind rather than literally (CI files,
//! a lockfile's rewriters, secret stores, dependencies) and about operations on a named object
//! (restarting the workers, clearing the queue): see `derive/kinds.rs`. Data only.

/// The files a rule about "CI files", "CI config" or "pipelines" is about: every common CI
/// system's configuration. Paths as `path` matchers read them (relative: anywhere).
pub(crate) const CI_PATHS: &[&str] = &[
    ".buildkite/",
    ".circleci/",
    ".drone.yml",
    ".github/workflows/",
    ".gitlab-ci.yml",
    ".travis.yml",
    "Jenkinsfile",
    "azure-pipelines.yml",
    "bitbucket-pipelines.yml",
];

/// Words after "CI" that make it the CI's files ("CI files", "CI config", "CI pipelines").
pub(crate) const CI_NOUNS: &[&str] = &[
    "config",
    "configs",
    "configuration",
    "definitions",
    "file",
    "files",
    "jobs",
    "pipeline",
    "pipelines",
    "setup",
    "workflow",
    "workflows",
    "yaml",
    "yml",
];

/// Words before "pipeline(s)" or "workflows" that make them the CI's ("build pipelines",
/// "GitHub workflows"); a "data pipeline" is code, not CI configuration.
pub(crate) const PIPELINE_QUALIFIERS: &[&str] = &[
    "actions",
    "build",
    "ci",
    "deploy",
    "deployment",
    "github",
    "gitlab",
    "release",
];

/// Verbs of changing a file: a ban on editing CI files leaves reading them alone.
pub(crate) const EDIT_VERBS: &[&str] = &[
    "alter",
    "altering",
    "change",
    "changing",
    "edit",
    "editing",
    "edits",
    "modify",
    "modifying",
    "rewrite",
    "rewriting",
    "touch",
    "touching",
    "update",
    "updating",
    "write",
    "writing",
];

/// Lockfiles, each with the commands that rewrite it without naming it: a ban on touching the
/// file holds for them (`poetry lock` under "Don't touch `poetry.lock`").
pub(crate) const LOCKFILE_WRITERS: &[(&str, &[&str])] = &[
    ("Cargo.lock", &["cargo generate-lockfile", "cargo update"]),
    ("Gemfile.lock", &["bundle lock", "bundle update"]),
    ("Pipfile.lock", &["pipenv lock", "pipenv update"]),
    ("composer.lock", &["composer update"]),
    ("flake.lock", &["nix flake lock", "nix flake update"]),
    ("go.sum", &["go mod tidy"]),
    ("package-lock.json", &["npm audit fix", "npm update"]),
    ("pnpm-lock.yaml", &["pnpm update"]),
    ("poetry.lock", &["poetry lock", "poetry update"]),
    ("uv.lock", &["uv lock"]),
    ("yarn.lock", &["yarn up", "yarn upgrade"]),
];

/// Words that name secrets: "secrets go through `op read`".
pub(crate) const SECRET_NOUNS: &[&str] = &[
    "credential",
    "credentials",
    "passwords",
    "secret",
    "secrets",
];

/// Phrases that make one way the only way: "..., nowhere else", "only through".
pub(crate) const ONLY_WAY: &[&str] = &[
    "and from nowhere else",
    "exclusively",
    "never anywhere else",
    "no other",
    "nothing else",
    "nowhere else",
    "only come from",
    "only from",
    "only through",
    "only via",
    "only with",
];

/// The commands that read a secret out of a store, by the store's program: a rule that sends
/// secrets through one store forbids the others.
pub(crate) const SECRET_READERS: &[&str] = &[
    "aws secretsmanager get-secret-value",
    "aws ssm get-parameter",
    "aws ssm get-parameters",
    "az keyvault secret download",
    "az keyvault secret show",
    "bw get",
    "doppler secrets get",
    "gcloud secrets versions access",
    "infisical secrets get",
    "op item get",
    "op read",
    "pass show",
    "sops --decrypt",
    "vault kv get",
    "vault read",
];

/// `kubectl get secret` prints a secret's values only with one of these output formats.
pub(crate) const SECRET_OUTPUTS: &[&str] = &["-o=json", "-o=jsonpath", "-o=yaml"];

/// Nouns of what a package manager adds: "adding a dependency", "new packages".
pub(crate) const DEPENDENCY_NOUNS: &[&str] = &[
    "crate",
    "crates",
    "dependencies",
    "dependency",
    "deps",
    "gem",
    "gems",
    "libraries",
    "library",
    "package",
    "packages",
];

/// Verbs and phrases of adding one: "add", "pull in", "new" ("any new dependency").
pub(crate) const ADDING: &[&str] = &[
    "add",
    "adding",
    "adds",
    "bring in",
    "bringing in",
    "introduce",
    "introducing",
    "new",
    "pull in",
    "pulling in",
];

/// The commands that add a dependency, by ecosystem, the manifest that names it first; `*` is
/// the package, so `npm install` alone (the locked set) is no addition.
pub(crate) const DEPENDENCY_ADDERS: &[(&str, &[&str])] = &[
    ("Cargo.toml", &["cargo add *"]),
    ("Gemfile", &["bundle add *", "gem install *"]),
    ("composer.json", &["composer require *"]),
    ("go.mod", &["go get *"]),
    (
        "package.json",
        &[
            "bun add *",
            "npm add *",
            "npm install *",
            "pnpm add *",
            "yarn add *",
        ],
    ),
    (
        "pyproject.toml",
        &[
            "conda install *",
            "pip install *",
            "pip3 install *",
            "pipenv install *",
            "poetry add *",
            "uv add *",
            "uv pip install *",
        ],
    ),
];

/// Flags with which an installer installs a list or the project itself, adding nothing new:
/// `pip install -r requirements.txt`, `pip install -e .`.
pub(crate) const INSTALLS_A_LIST: &[&str] = &["--editable", "--requirement", "-e", "-r"];

/// Operations a rule forbids on an object it names ("don't restart the workers"), each with
/// the commands that do it; the call's invocation must carry the object's word.
pub(crate) const OPERATIONS: &[(&str, &[&str])] = &[
    (
        "clear",
        &[
            "aws sqs purge-queue",
            "celery purge",
            "rabbitmqctl purge_queue",
            "redis-cli del",
            "redis-cli flushall",
            "redis-cli flushdb",
            "redis-cli unlink",
        ],
    ),
    (
        "restart",
        &[
            "docker compose restart",
            "docker restart",
            "docker-compose restart",
            "kubectl rollout restart",
            "pm2 reload",
            "pm2 restart",
            "supervisorctl restart",
            "systemctl reload",
            "systemctl restart",
        ],
    ),
    (
        "stop",
        &[
            "docker compose stop",
            "docker kill",
            "docker stop",
            "docker-compose stop",
            "pm2 delete",
            "pm2 stop",
            "supervisorctl stop",
            "systemctl stop",
        ],
    ),
];

/// The words of each operation of [`OPERATIONS`] (and of scaling down), by operation.
pub(crate) const OPERATION_VERBS: &[(&str, &str)] = &[
    ("bounce", "restart"),
    ("clear", "clear"),
    ("clearing", "clear"),
    ("drain", "clear"),
    ("draining", "clear"),
    ("empty", "clear"),
    ("emptying", "clear"),
    ("flush", "clear"),
    ("flushing", "clear"),
    ("purge", "clear"),
    ("purging", "clear"),
    ("reload", "restart"),
    ("restart", "restart"),
    ("restarting", "restart"),
    ("scale", "scale"),
    ("scaling", "scale"),
    ("shut", "stop"),
    ("stop", "stop"),
    ("stopping", "stop"),
    ("wipe", "clear"),
    ("wiping", "clear"),
];

/// Objects whose clearing some commands do by nature, with no name of the object in the call:
/// `celery purge` clears the task queue, `redis-cli FLUSHALL` every key of a cache or a queue.
pub(crate) const CLEARED_BY_NATURE: &[(&str, &[&str])] = &[
    (
        "cache",
        &["memcflush", "redis-cli flushall", "redis-cli flushdb"],
    ),
    (
        "queue",
        &[
            "aws sqs purge-queue",
            "celery purge",
            "rabbitmqctl purge_queue",
            "redis-cli flushall",
            "redis-cli flushdb",
        ],
    ),
];

/// Words between an operation and its object, or of the object's kind, that name no object:
/// "restart the prod api deployment" is about `api`.
pub(crate) const OBJECT_FILLERS: &[&str] = &[
    "a",
    "all",
    "an",
    "any",
    "app",
    "container",
    "containers",
    "daemon",
    "daemons",
    "deployment",
    "deployments",
    "down",
    "my",
    "our",
    "pod",
    "pods",
    "prod",
    "production",
    "service",
    "services",
    "staging",
    "that",
    "the",
    "these",
    "this",
    "those",
];

/// Objects that are no object of one operation: "don't restart anything" is a ban of the
/// operation as a whole, which derivation reads.
pub(crate) const NO_OBJECT: &[&str] = &[
    "anything",
    "everything",
    "it",
    "nothing",
    "something",
    "them",
    "unless",
    "until",
    "without",
];

/// Words just before an operation that ban it ("never restart", "don't flush").
pub(crate) const BANNING_WORDS: &[&str] = &[
    "avoid",
    "can't",
    "cannot",
    "don't",
    "dont",
    "mustn't",
    "never",
    "no",
    "not",
    "shouldn't",
    "won't",
];

/// Words just before an operation that ask about it ("ask before restarting").
pub(crate) const ASKING_WORDS: &[&str] = &["before"];

/// Phrases that give a ban on package managers its purpose ("never use npm or yarn for
/// installing packages"): the ban is then of their install subcommands alone.
pub(crate) const INSTALL_PURPOSES: &[&str] = &[
    "for adding",
    "for installing",
    "for installs",
    "for package installation",
    "for package installs",
    "to add dependencies",
    "to add packages",
    "to install",
];

/// The subcommands that install or add packages, by package manager.
pub(crate) const INSTALL_SUBCOMMANDS: &[(&str, &[&str])] = &[
    ("bun", &["add", "i", "install"]),
    ("bundle", &["add", "install"]),
    ("cargo", &["add", "install"]),
    ("composer", &["install", "require"]),
    ("conda", &["install"]),
    ("gem", &["install"]),
    ("npm", &["add", "ci", "i", "install"]),
    ("pip", &["install"]),
    ("pip3", &["install"]),
    ("pipenv", &["install"]),
    ("pnpm", &["add", "i", "install"]),
    ("poetry", &["add", "install"]),
    ("uv", &["add", "pip install", "sync"]),
    ("yarn", &["add", "install"]),
];

/// Words between an issue or pull request number and its repository ("#311 on acme/api").
pub(crate) const REPOSITORY_PREPOSITIONS: &[&str] = &["at", "in", "of", "on"];

/// Words between a required clause and the table it binds ("without a `LIMIT` on `events`").
pub(crate) const TABLE_PREPOSITIONS: &[&str] = &["against", "for", "from", "in", "on", "to"];

/// Programs that run tasks by name, as a rule names them ("with Gradle", "make targets"), and
/// the program a call runs them with (`./gradlew` is `gradle`).
pub(crate) const TASK_PROGRAMS: &[(&str, &str)] = &[
    ("gradle", "gradle"),
    ("gradlew", "gradle"),
    ("make", "make"),
    ("maven", "mvn"),
    ("mvn", "mvn"),
    ("rake", "rake"),
];

/// The arguments by which tools make what they write public: a post's visibility, a share
/// link's access (Google Drive's `anyone`, Box's `open`). Each is (key, value).
pub(crate) const PUBLIC_ARGUMENTS: &[(&str, &str)] = &[
    ("access", "anyone"),
    ("access", "open"),
    ("access", "public"),
    ("audience", "public"),
    ("is_public", "true"),
    ("privacy", "public"),
    ("public", "true"),
    ("visibility", "public"),
];

/// Kinds of commands a rule names by what they do ("no package installs", "nothing that
/// talks to the network"), each with the phrases that name it and the commands of that kind
/// (issue 21, twelfth round, P3). `*` is an argument: `npm install` alone installs the
/// locked set and adds no package, so it is no package install; `npm ci` neither.
pub(crate) const COMMAND_KINDS: &[(&[&str], &[&str])] = &[
    (
        &[
            "global install",
            "global installs",
            "global package",
            "global packages",
            "install globally",
            "install anything globally",
            "installing globally",
            "installed globally",
            "installs globally",
        ],
        &[
            "bun add --global *",
            "bun add -g *",
            "npm i --global *",
            "npm i -g *",
            "npm install --global *",
            "npm install -g *",
            "pnpm add --global *",
            "pnpm add -g *",
            "yarn global add *",
        ],
    ),
    (
        &[
            "install anything",
            "install dependencies",
            "install packages",
            "install software",
            "installing anything",
            "installing dependencies",
            "installing packages",
            "installing software",
            "package installation",
            "package installations",
            "package installs",
            "package install",
            "software installs",
        ],
        PACKAGE_INSTALLS,
    ),
    (
        &[
            "that uploads",
            "upload anything",
            "uploading anything",
            "uploads anything",
            "no uploads",
            "that upload",
        ],
        &[
            "bun publish",
            "cargo publish",
            "docker push",
            "gem push",
            "gh release upload",
            "gradle publish",
            "helm push",
            "mvn deploy",
            "npm publish",
            "pnpm publish",
            "poetry publish",
            "twine upload",
            "yarn publish",
        ],
    ),
    (
        &[
            "network access",
            "network call",
            "network calls",
            "network request",
            "network requests",
            "talks to the network",
            "talk to the network",
            "touches the network",
            "touch the network",
            "uses the network",
            "use the network",
            "goes online",
            "go online",
            "the internet",
        ],
        NETWORK_COMMANDS,
    ),
];

/// Verbs of shipping that, said bare as a whole order ("Never deploy.", "don't release
/// anything without asking"), are every command of their kind: a deploy to a host, a publish
/// to a registry or a release on a forge.
pub(crate) const BARE_KIND_VERBS: &[(&[&str], &[&str])] = &[
    (&["deploy", "deploying", "deploys"], DEPLOY_COMMANDS),
    (
        &["publish", "publishing", "release", "releasing"],
        PUBLISH_COMMANDS,
    ),
];

/// The commands that deploy an application to where it runs.
pub(crate) const DEPLOY_COMMANDS: &[&str] = &[
    "cdk deploy",
    "eb deploy",
    "firebase deploy",
    "fly deploy",
    "flyctl deploy",
    "gcloud app deploy",
    "gcloud functions deploy",
    "gcloud run deploy",
    "kamal deploy",
    "netlify deploy",
    "railway up",
    "sam deploy",
    "serverless deploy",
    "sls deploy",
    "vercel --prod",
    "vercel deploy",
    "wrangler deploy",
    "wrangler publish",
];

/// The commands that publish a package to a registry or create a release on a forge.
pub(crate) const PUBLISH_COMMANDS: &[&str] = &[
    "bun publish",
    "cargo publish",
    "gem push",
    "gh release create",
    "glab release create",
    "goreleaser release",
    "gradle publish",
    "mvn deploy",
    "npm publish",
    "pnpm publish",
    "poetry publish",
    "twine upload",
    "yarn publish",
];

/// The commands that install a package, on every common system (`*` is the package).
pub(crate) const PACKAGE_INSTALLS: &[&str] = &[
    "apt install *",
    "apt-get install *",
    "brew install *",
    "bun add *",
    "bundle add *",
    "cargo add *",
    "cargo install *",
    "choco install *",
    "composer require *",
    "conda install *",
    "dnf install *",
    "gem install *",
    "go get *",
    "go install *",
    "npm add *",
    "npm i *",
    "npm install *",
    "pip install *",
    "pip3 install *",
    "pipx install *",
    "pnpm add *",
    "poetry add *",
    "python -m pip install *",
    "python3 -m pip install *",
    "uv add *",
    "uv pip install *",
    "winget install *",
    "yarn add *",
    "yum install *",
];

/// The commands that talk to the network by nature (besides installs of packages).
pub(crate) const NETWORK_COMMANDS: &[&str] = &[
    "curl",
    "ftp",
    "git clone",
    "git fetch",
    "git ls-remote",
    "git pull",
    "git push",
    "http",
    "https",
    "nc",
    "scp",
    "sftp",
    "ssh",
    "telnet",
    "wget",
];

/// Commands that do one thing under several programs' names (issue 21, twelfth round, P4): a
/// ban of one is a ban of the others, with the words after it (`gsutil rm gs://b/x` is
/// `gcloud storage rm gs://b/x`). Each group's members are equal. A group with a word holds
/// only where the rule's prose (outside code) says that word: "Never publish packages (`npm
/// publish`)" bans publishing, so `pnpm publish` too, where "Do not `npm publish`" is about
/// npm's registry alone. (Other names of a whole program are `normalize::PROGRAM_EQUIVALENTS`,
/// which hold for every rule.)
pub(crate) const EQUIVALENT_COMMANDS: &[(&[&str], &str)] = &[
    (
        &[
            "npm publish",
            "pnpm publish",
            "yarn publish",
            "yarn npm publish",
            "bun publish",
        ],
        "publish",
    ),
    (&["gsutil rm", "gcloud storage rm"], ""),
    (&["gsutil cp", "gcloud storage cp"], ""),
    (&["gsutil mv", "gcloud storage mv"], ""),
    (&["gsutil rsync", "gcloud storage rsync"], ""),
    (&["gsutil rb", "gcloud storage buckets delete"], ""),
    (&["gsutil mb", "gcloud storage buckets create"], ""),
    (&["airflow", "astro dev run"], ""),
    (
        &["python manage.py", "./manage.py", "python3 manage.py"],
        "",
    ),
];

/// Operations on objects whose commands are their own (issue 21, twelfth round, P10): "do not
/// restart IIS or app pools" is IIS's and its pools' cmdlets and tools, which name no object a
/// restart of a service would. Each is the operation, the object's words, and its commands.
pub(crate) const OPERATED_BY_NATURE: &[(&str, &[&str], &[&str])] = &[
    (
        "restart",
        &["apppool", "apppools", "iis", "pool", "pools", "w3svc"],
        &[
            "appcmd recycle apppool",
            "iisreset",
            "restart-webapppool",
            "restart-webitem",
            "start-webapppool",
            "stop-webapppool",
        ],
    ),
    (
        "stop",
        &["apppool", "apppools", "iis", "pool", "pools", "w3svc"],
        &[
            "appcmd stop apppool",
            "iisreset /stop",
            "stop-webapppool",
            "stop-website",
        ],
    ),
];

/// Verbs of closing a tracked item, each with the states an update sets to do it (issue 21,
/// twelfth round, P8): "don't close or cancel Linear issues" forbids `update_issue {"state":
/// "Done"}` as it forbids `close_issue`. Lower-case, as an argument's value is compared.
pub(crate) const CLOSING_VERBS: &[(&str, &[&str])] = &[
    ("cancel", &["canceled", "cancelled", "wont_do", "won't do"]),
    (
        "canceling",
        &["canceled", "cancelled", "wont_do", "won't do"],
    ),
    (
        "cancelling",
        &["canceled", "cancelled", "wont_do", "won't do"],
    ),
    ("close", &["closed", "completed", "done", "resolved"]),
    ("closing", &["closed", "completed", "done", "resolved"]),
    ("resolve", &["completed", "done", "resolved"]),
    ("resolving", &["completed", "done", "resolved"]),
];

/// The items a closing verb closes, as a kind (plural): "close issue #311" is of one issue,
/// which the grammar reads as its id.
pub(crate) const TRACKED_ITEMS: &[&str] = &["issues", "prs", "requests", "tickets", "tasks"];
/// The argument keys trackers set an item's state by.
pub(crate) const STATE_KEYS: &[&str] = &["state", "status", "state_reason", "stateid"];
