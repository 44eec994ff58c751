package stacks

import (
	"slices"
	"testing"
)

// TestRustAndPHPToolRoots: every crate judges itself but a workspace's
// members, which the workspace root covers; a PHP root is judged by the
// tools it configures or requires, and a composer.json that does not parse
// is said so, for each PHP tool.
func TestRustAndPHPToolRoots(t *testing.T) {
	f := gather(t, map[string]string{
		"ws/Cargo.toml":               "[workspace]\nmembers = [\"crates/*\"]\n",
		"ws/crates/core/Cargo.toml":   "[package]\nname = \"core\"\n",
		"tools/gen/Cargo.toml":        "[package]\nname = \"gen\"\n",
		"web/composer.json":           `{"require-dev": {"phpunit/phpunit": "^10", "phpstan/phpstan": "^1"}}`,
		"web/phpcs.xml.dist":          "<ruleset/>",
		"cli/composer.json":           `{"require": {"php": ">=8.1"}}`,
		"cli/phpunit.xml":             "<phpunit/>",
		"legacy/composer.json":        `{"require-dev": `,
		"legacy/phpstan.neon":         "parameters:\n",
		"lonely/phpcs.xml":            "<ruleset/>",
		"vendor/x/y/composer.json":    `{"require-dev": {"phpunit/phpunit": "^9"}}`,
		"vendor/x/y/phpunit.xml.dist": "<phpunit/>",
		"other/Cargo.toml":            "[package]\nname = \"o\"\n[workspace]\n",
		"other/member/Cargo.toml":     "[package]\nname = \"m\"\n",
		"broken/Cargo.toml":           "[workspace\n",
		"broken/inner/Cargo.toml":     "[package]\n",
	})
	for tool, want := range map[string][]string{
		"cargo_check": {"broken:|Cargo.toml", "broken/inner:|Cargo.toml", "other:|Cargo.toml", "tools/gen:|Cargo.toml", "ws:|Cargo.toml"},
		"clippy":      {"broken:|Cargo.toml", "broken/inner:|Cargo.toml", "other:|Cargo.toml", "tools/gen:|Cargo.toml", "ws:|Cargo.toml"},
		"cargo_test":  {"broken:|Cargo.toml", "broken/inner:|Cargo.toml", "other:|Cargo.toml", "tools/gen:|Cargo.toml", "ws:|Cargo.toml"},
		"phpcs":       {"web:|phpcs.xml.dist"},
		"phpstan":     {"legacy:|phpstan.neon", "web:|phpstan/phpstan in composer.json"},
		"phpunit":     {"cli:|phpunit.xml", "web:|phpunit/phpunit in composer.json"},
	} {
		if got := toolRoots(f, tool); !slices.Equal(got, want) {
			t.Errorf("%s roots = %q, want %q", tool, got, want)
		}
	}
	for _, tool := range []string{"phpcs", "phpstan", "phpunit", "cargo_check"} {
		u := f.Tools[tool].Unreadable
		want := "legacy/composer.json"
		if tool == "cargo_check" {
			want = "broken/Cargo.toml"
		}
		if !slices.ContainsFunc(u, func(x Unreadable) bool { return x.File == want }) {
			t.Errorf("%s: unreadable %v, want %s", tool, u, want)
		}
	}
}

// TestJavaAndInfraToolRoots: javac compiles a module's sources but its
// tests and a nested module's; ktlint judges a module with Kotlin sources;
// hadolint is given the Dockerfiles of their directory.
func TestJavaAndInfraToolRoots(t *testing.T) {
	f := gather(t, map[string]string{
		"pom.xml":                       "<project/>",
		"src/main/java/ex/App.java":     "class App {}",
		"src/test/java/ex/AppTest.java": "class AppTest {}",
		"lib/build.gradle.kts":          "",
		"lib/src/main/kotlin/Lib.kt":    "class Lib",
		"lib/src/main/java/Util.java":   "class Util {}",
		"docs/build.gradle":             "",
		"deploy/Dockerfile":             "FROM alpine:3\n",
		"deploy/Dockerfile.dev":         "FROM alpine:3\n",
		"infra/main.tf":                 "",
		"ops/ansible.cfg":               "[defaults]\n",
	})
	for tool, want := range map[string][]string{
		"javac":              {".:|pom.xml+src/main/java/ex/App.java", "lib:|build.gradle.kts+src/main/java/Util.java"},
		"ktlint":             {"lib:|Kotlin sources|build.gradle.kts"},
		"hadolint":           {"deploy:|Dockerfile|Dockerfile.dev+Dockerfile+Dockerfile.dev"},
		"terraform_validate": {"infra:|main.tf"},
		"ansible_lint":       {"ops:|ansible.cfg"},
	} {
		if got := toolRoots(f, tool); !slices.Equal(got, want) {
			t.Errorf("%s roots = %q, want %q", tool, got, want)
		}
	}
}

// TestShellAndYamlToolRoots: shellcheck judges each directory of shell
// scripts, given those scripts; yamllint each directory that keeps a
// yamllint config; scripts in test data are not the project's.
func TestShellAndYamlToolRoots(t *testing.T) {
	f := gather(t, map[string]string{
		"install.sh":                 "#!/bin/sh\n",
		"scripts/ci.bash":            "#!/bin/bash\n",
		"scripts/release.sh":         "#!/bin/sh\n",
		"scripts/notes.txt":          "",
		"testdata/x.sh":              "#!/bin/sh\n",
		"deploy/.yamllint.yaml":      "extends: default\n",
		"deploy/app.yaml":            "a: 1\n",
		"config/settings.yml":        "a: 1\n",
		"ops/.yamllint":              "extends: relaxed\n",
		"testdata/cfg/.yamllint.yml": "extends: default\n",
	})
	for tool, want := range map[string][]string{
		"shellcheck": {".:|install.sh+install.sh", "scripts:|ci.bash|release.sh+ci.bash+release.sh"},
		"yamllint":   {"deploy:|.yamllint.yaml", "ops:|.yamllint"},
	} {
		if got := toolRoots(f, tool); !slices.Equal(got, want) {
			t.Errorf("%s roots = %q, want %q", tool, got, want)
		}
	}
}
