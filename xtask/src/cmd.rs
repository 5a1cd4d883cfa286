//! Running external commands: log the exact command line, run it, fail on a non-zero exit.
//!
//! Every command xtask runs goes through [`Cmd`], so the log always shows what to type to
//! reproduce a step by hand, for example `$ RUSTDOCFLAGS="-D warnings" cargo doc --workspace
//! --no-deps`. Commands run from the workspace root, whatever the caller's directory.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace root (the parent of the `xtask` directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in a directory of the workspace")
        .to_path_buf()
}

/// The cargo executable: the one that launched `cargo xtask` when known, else `cargo` on `PATH`.
fn cargo_exe() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// One command line to log and run.
#[derive(Clone, Debug)]
pub struct Cmd {
    program: String,
    args: Vec<String>,
    envs: Vec<(String, String)>,
    note: Option<String>,
}

impl Cmd {
    /// `cargo` with the given arguments.
    pub fn cargo<I, S>(args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Cmd {
            program: "cargo".into(),
            args: args.into_iter().map(Into::into).collect(),
            envs: Vec::new(),
            note: None,
        }
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets an environment variable for the command (and shows it in the log line).
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.envs.push((key.into(), value.into()));
        self
    }

    /// A remark printed after the command line in the log, as a shell comment.
    pub fn note(mut self, note: &str) -> Self {
        self.note = Some(note.into());
        self
    }

    /// The command line as a user would type it in a POSIX shell.
    pub fn display(&self) -> String {
        let mut parts: Vec<String> =
            self.envs.iter().map(|(k, v)| format!("{k}={}", shell_quote(v))).collect();
        parts.push(self.program.clone());
        parts.extend(self.args.iter().map(|a| shell_quote(a)));
        parts.join(" ")
    }

    fn command(&self) -> Command {
        let program =
            if self.program == "cargo" { cargo_exe() } else { self.program.clone().into() };
        let mut c = Command::new(program);
        c.args(&self.args).current_dir(workspace_root());
        for (k, v) in &self.envs {
            c.env(k, v);
        }
        c
    }

    /// Logs the command line to stderr, runs it with inherited stdio, and fails on a non-zero
    /// exit or when it cannot be started.
    pub fn run(&self) -> Result<(), String> {
        match &self.note {
            Some(note) => eprintln!("$ {}    # {note}", self.display()),
            None => eprintln!("$ {}", self.display()),
        }
        let status = self
            .command()
            .status()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{}` failed ({status})", self.display()))
        }
    }

    /// Runs the command without logging, capturing stdout; fails on a non-zero exit, with the
    /// command's stderr in the message.
    pub fn read(&self) -> Result<String, String> {
        let out = self
            .command()
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if !out.status.success() {
            return Err(format!(
                "`{}` failed ({}):\n{}",
                self.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        String::from_utf8(out.stdout).map_err(|_| format!("`{}` printed non-UTF-8", self.display()))
    }

    /// `true` when the command runs and exits successfully (output discarded, nothing logged).
    pub fn succeeds_quietly(&self) -> bool {
        self.command()
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

/// Quotes `s` for a POSIX shell when it contains anything but safe characters.
fn shell_quote(s: &str) -> String {
    let safe =
        !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if safe {
        return s.to_string();
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_like_a_shell_command() {
        let c = Cmd::cargo(["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings");
        assert_eq!(c.display(), "RUSTDOCFLAGS=\"-D warnings\" cargo doc --workspace --no-deps");
        let c = Cmd::cargo(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]);
        assert_eq!(c.display(), "cargo clippy --workspace --all-targets -- -D warnings");
    }

    #[test]
    fn workspace_root_holds_the_workspace_manifest() {
        assert!(workspace_root().join("Cargo.toml").is_file());
        assert!(workspace_root().join("crates").is_dir());
    }
}
