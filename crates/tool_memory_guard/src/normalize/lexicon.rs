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
    ("kubectl", "-n", "--namespace"),
    // Short flags keep their case (`git branch -d` deletes a merged branch, `-D` any branch);
    // where a program reads both cases as one flag, the capital is listed here.
    ("rm", "-R", "-r"),
    ("cp", "-R", "-r"),
    ("chmod", "-R", "-r"),
    ("chown", "-R", "-r"),
    ("chgrp", "-R", "-r"),
];

/// Short flags whose meaning depends on the subcommand, per program and subcommand: `git
/// commit -n` is `--no-verify` where `git push -n` is `--dry-run`.
pub(crate) const SUBCOMMAND_FLAG_ALIASES: &[(&str, &str, &str, &str)] = &[
    ("git", "add", "-n", "--dry-run"),
    ("git", "branch", "-l", "--list"),
    ("git", "clean", "-n", "--dry-run"),
    ("git", "commit", "-n", "--no-verify"),
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
