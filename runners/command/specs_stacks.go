package command

import "time"

// The built-in command gates of the Rust, PHP, Java,
// Kotlin, Ansible, Terraform and Dockerfile stacks, each run in every root
// of its stack that the stacks namespace says it judges, with the root as
// working directory:
//
//   - cargo_check, clippy, cargo_test: cargo with --message-format=json;
//     cargo test runs every test binary (--no-fail-fast) and prints no
//     backtraces.
//   - phpcs (--report=json) and phpstan (--error-format=json) over the
//     scoped PHP files; phpunit runs the root's suites with a JUnit report.
//   - javac compiles the scoped sources (the root's tests left out, see
//     runners/stacks), finding the classes they use on the source path
//     (src/main/java, src, the root), into a throwaway directory
//     ({report}), so no class file lands in the project.
//   - ktlint (--reporter=json) over the scoped Kotlin files.
//   - ansible-lint (-f json, --offline: no Galaxy download) over the root.
//   - terraform validate -json in each directory of .tf files.
//   - hadolint (--format json) over the root's Dockerfiles.
func init() {
	rust := []string{".rs"}
	php := []string{".php"}
	cargoEnv := []string{"CARGO_TERM_COLOR=never", "RUST_BACKTRACE=0"}
	for _, s := range []struct {
		spec  Spec
		allow []string
	}{
		{Spec{Name: "cargo_check", Argv: []string{"cargo", "check", "--all-targets", "--message-format=json"}, Env: cargoEnv,
			Extensions: rust, Timeout: 10 * time.Minute, Parser: ParserCargo}, []string{"cargo", "check"}},
		{Spec{Name: "clippy", Argv: []string{"cargo", "clippy", "--all-targets", "--message-format=json"}, Env: cargoEnv,
			Extensions: rust, Timeout: 10 * time.Minute, Parser: ParserCargo}, []string{"cargo", "clippy"}},
		{Spec{Name: "cargo_test", Argv: []string{"cargo", "test", "--no-fail-fast", "--message-format=json"}, Env: cargoEnv,
			Extensions: rust, Timeout: 15 * time.Minute, Parser: ParserCargo}, []string{"cargo", "test"}},
		{Spec{Name: "phpcs", Argv: []string{"phpcs", "--report=json", "-q", "--no-colors", FilesArg},
			Extensions: php, Timeout: 5 * time.Minute, Parser: ParserPHPCS}, []string{"phpcs"}},
		{Spec{Name: "phpstan", Argv: []string{"phpstan", "analyse", "--error-format=json", "--no-progress", "--no-interaction", FilesArg},
			Extensions: php, Timeout: 10 * time.Minute, Parser: ParserPHPStan}, []string{"phpstan", "analyse"}},
		{Spec{Name: "phpunit", Argv: []string{"phpunit", "--do-not-cache-result", "--log-junit", ReportArg},
			Extensions: php, Timeout: 15 * time.Minute, Parser: ParserPHPUnit}, []string{"phpunit"}},
		{Spec{Name: "javac", Argv: []string{"javac", "-d", ReportArg, "-sourcepath", "src/main/java:src:.", "-encoding", "UTF-8",
			"-proc:none", "-Xmaxerrs", "1000", FilesArg},
			Extensions: []string{".java"}, Timeout: 10 * time.Minute, Parser: ParserJavac}, []string{"javac"}},
		{Spec{Name: "ktlint", Argv: []string{"ktlint", "--reporter=json", "--relative", FilesArg},
			Extensions: []string{".kt", ".kts"}, Timeout: 5 * time.Minute, Parser: ParserKtlint}, []string{"ktlint"}},
		{Spec{Name: "ansible_lint", Argv: []string{"ansible-lint", "-f", "json", "--offline", "--nocolor", "-q"},
			Extensions: []string{".yml", ".yaml"}, Timeout: 10 * time.Minute, Parser: ParserAnsible}, []string{"ansible-lint"}},
		{Spec{Name: "terraform_validate", Argv: []string{"terraform", "validate", "-json", "-no-color"},
			Env:        []string{"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1"},
			Extensions: []string{".tf"}, Timeout: 5 * time.Minute, Parser: ParserTfValid}, []string{"terraform", "validate"}},
		{Spec{Name: "hadolint", Argv: []string{"hadolint", "--format", "json", "--no-color", FilesArg},
			Timeout: 2 * time.Minute, Parser: ParserHadolint}, []string{"hadolint"}},
	} {
		s.spec.Exclude = DefaultExclude
		RegisterStack(s.spec, s.allow)
	}
}
