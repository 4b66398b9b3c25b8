//! Every relative link in the README and the docs leads somewhere: the file or folder exists,
//! and an anchor (`page.md#section`, `#section`) names a heading of that page, spelt as GitHub
//! spells it (lowercase, punctuation removed, spaces to hyphens, a repeated heading's anchor
//! followed by -1, -2, ...). Links to other sites are not followed. Run by `cargo test`, and
//! first of the tests by `.ci/run`.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The pages checked, relative to the repository root: the README, every page under `docs/`,
/// and the READMEs of the data folders the docs link to.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("README.md")];
    for dir in ["book", "corpus", "params", "protocol-tests"] {
        let p = Path::new(dir).join("README.md");
        if root.join(&p).is_file() {
            out.push(p);
        }
    }
    let mut stack = vec![PathBuf::from("docs")];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<PathBuf> = fs::read_dir(root.join(&dir))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| dir.join(e.expect("a directory entry").file_name()))
            .collect();
        entries.sort();
        for p in entries {
            if root.join(&p).is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out
}

/// A heading's text as GitHub renders it before making the anchor: links keep their text,
/// code spans and emphasis lose their marks.
fn heading_text(raw: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = raw.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == ']' && chars.get(i + 1) == Some(&'(') {
            // `[text](target)`: skip the target.
            match chars[i..].iter().position(|&x| x == ')') {
                Some(end) => i += end + 1,
                None => i += 1,
            }
            continue;
        }
        if c != '[' && c != '`' && c != '*' {
            out.push(c);
        }
        i += 1;
    }
    out.trim().to_string()
}

/// GitHub's anchor for a heading's text: lowercase; letters, digits, `-`, `_` kept, spaces to
/// hyphens, everything else (punctuation, symbols, dashes other than `-`) dropped.
fn slug(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// Lines outside fenced code blocks, with their numbers (from 1).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let mark = if t.starts_with("```") {
            Some("```")
        } else if t.starts_with("~~~") {
            Some("~~~")
        } else {
            None
        };
        match (fence, mark) {
            (None, Some(m)) => fence = Some(m),
            (Some(f), Some(m)) if f == m => fence = None,
            (None, None) => out.push((n + 1, line)),
            _ => {}
        }
    }
    out
}

/// The anchors a page defines: its headings (duplicates numbered) and any `<a id="...">` or
/// `<a name="...">`.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = HashSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(&heading_text(line[hashes..].trim_end_matches('#')));
            let n = seen.entry(base.clone()).or_insert(0);
            out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
            *n += 1;
        }
        for key in ["<a id=\"", "<a name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find(key) {
                rest = &rest[at + key.len()..];
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_string());
                }
            }
        }
    }
    out
}

/// The targets of a page's links (`[text](target)`, `![alt](target)`, `[ref]: target`), with
/// their line numbers; code spans are left out.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        // Drop code spans: every other backtick-delimited piece.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let t = prose.trim_start();
        // A reference definition: `[name]: target`.
        if let Some(def) = t
            .strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .and_then(|(_, r)| r.strip_prefix(':'))
        {
            if let Some(target) = def.split_whitespace().next() {
                out.push((n, target.to_string()));
            }
            continue;
        }
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            // The target ends at the first space (a title may follow) or the matching ')'.
            let mut depth = 0;
            let mut end = rest.len();
            for (i, c) in rest.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => {
                        end = i;
                        break;
                    }
                    ')' => depth -= 1,
                    ' ' => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            let target = rest[..end].trim_start_matches('<').trim_end_matches('>');
            out.push((n, target.to_string()));
            rest = &rest[end..];
        }
    }
    out
}

/// `base/rel` with `.` and `..` resolved; None if it climbs out of the repository.
fn join(base: &Path, rel: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in base.join(rel).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            _ => return None,
        }
    }
    Some(out)
}

/// Every broken link of `pages` (paths relative to `root`), one message each.
fn broken_links(root: &Path, pages: &[PathBuf]) -> Vec<String> {
    let mut cache: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    let mut errors = Vec::new();
    for page in pages {
        let text = fs::read_to_string(root.join(page)).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        let dir = page.parent().unwrap_or(Path::new(""));
        for (line, target) in links(&text) {
            let at = format!("{}:{line}: ({target})", page.display());
            if target.is_empty() {
                errors.push(format!("{at}: empty link"));
                continue;
            }
            if target.contains("://") || target.starts_with("mailto:") || target.starts_with("//") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                match join(dir, path) {
                    Some(f) => f,
                    None => {
                        errors.push(format!("{at}: leaves the repository"));
                        continue;
                    }
                }
            };
            if !root.join(&file).exists() {
                errors.push(format!("{at}: no such file {}", file.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if file.extension().is_none_or(|x| x != "md") {
                continue; // anchors into source files are line numbers: not checked
            }
            let names = cache
                .entry(file.clone())
                .or_insert_with(|| anchors(&fs::read_to_string(root.join(&file)).unwrap_or_default()));
            if !names.contains(anchor) {
                errors.push(format!("{at}: {} has no heading #{anchor}", file.display()));
            }
        }
    }
    errors
}

/// Where a file names a page of the docs by its path from the repository root (`docs/x.md`,
/// `docs/x.md#anchor`), as the code's comments do: each path with its line number.
fn doc_mentions(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("docs/") {
            let preceded = line.len() - rest.len() + at;
            rest = &rest[at..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || "_./#-".contains(c)))
                .unwrap_or(rest.len());
            let path = rest[..end].trim_end_matches(['.', '#']);
            // Only paths from the root: not `../docs/`, `x/docs/`.
            let from_root = preceded == 0 || !line[..preceded].ends_with(['/', '.']);
            if from_root && (path.ends_with(".md") || path.contains(".md#")) {
                out.push((n + 1, path.to_string()));
            }
            rest = &rest[end.max(1)..];
        }
    }
    out
}

/// The files whose mentions of `docs/...md` are checked: the sources, tests, examples and
/// benchmarks (this file's own samples left out), and the pages themselves.
fn mentioning_files(root: &Path, pages: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = pages.to_vec();
    let mut stack: Vec<PathBuf> = ["src", "tests", "examples", "benches"].iter().map(PathBuf::from).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(root.join(&dir)) else {
            continue;
        };
        let mut entries: Vec<PathBuf> = entries.map(|e| dir.join(e.expect("a directory entry").file_name())).collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if root.join(&p).is_dir() {
                if name != "node_modules" {
                    stack.push(p);
                }
            } else if ["rs", "sh", "py"].iter().any(|x| p.extension().is_some_and(|e| e == *x))
                && p != Path::new("tests/doc_links.rs")
            {
                out.push(p);
            }
        }
    }
    out
}

/// Every mention of a docs page (see `doc_mentions`) in `files` that names no page or no
/// heading of it.
fn broken_mentions(root: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut errors = Vec::new();
    for file in files {
        let Ok(text) = fs::read_to_string(root.join(file)) else {
            continue;
        };
        for (line, mention) in doc_mentions(&text) {
            let (path, anchor) = match mention.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (mention.as_str(), None),
            };
            let at = format!("{}:{line}: {mention}", file.display());
            let Ok(page) = fs::read_to_string(root.join(path)) else {
                errors.push(format!("{at}: no such page"));
                continue;
            };
            if let Some(anchor) = anchor
                && !anchors(&page).contains(anchor)
            {
                errors.push(format!("{at}: {path} has no heading #{anchor}"));
            }
        }
    }
    errors
}

#[test]
fn every_link_in_the_readme_and_the_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pages = pages(root);
    assert!(pages.len() > 5, "the docs were not found: {pages:?}");
    let errors = broken_links(root, &pages);
    assert!(errors.is_empty(), "broken links:\n{}", errors.join("\n"));
}

#[test]
fn every_docs_page_the_code_cites_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = mentioning_files(root, &pages(root));
    assert!(files.iter().any(|f| f.starts_with("src")), "the sources were not found");
    let errors = broken_mentions(root, &files);
    assert!(
        errors.is_empty(),
        "docs pages cited that do not exist:\n{}",
        errors.join("\n")
    );
}

#[test]
fn anchors_are_spelt_as_github_spells_them() {
    assert_eq!(slug(&heading_text("Install and run")), "install-and-run");
    assert_eq!(slug(&heading_text("FFO #40–#49: exact")), "ffo-4049-exact");
    assert_eq!(
        slug(&heading_text("The risk-aware style (`--risk C`, issue 22)")),
        "the-risk-aware-style---risk-c-issue-22"
    );
    assert_eq!(slug(&heading_text("[Levels](levels.md) and 73 %")), "levels-and-73-");
    assert_eq!(
        slug(&heading_text("2026-11-27 (fifteenth session)")),
        "2026-11-27-fifteenth-session"
    );
    let a = anchors("# A\n## Notes\n```\n## Not a heading\n```\n## Notes\n### Notes\n<a id=\"x-1\"></a>\n");
    let mut a: Vec<_> = a.into_iter().collect();
    a.sort();
    assert_eq!(a, ["a", "notes", "notes-1", "notes-2", "x-1"]);
}

#[test]
fn the_checker_finds_broken_links() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("doc_links-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(root.join("docs/history")).expect("temp dir");
    fs::write(
        root.join("README.md"),
        "# Top\n\n## Use it\n\nSee [the log](docs/history/log.md#day-two), [ok](docs/a.md#part), \
         [site](https://example.org/x#y), [here](#use-it), [pic](docs/a.png).\n\
         Broken: [gone](docs/missing.md), [bad anchor](docs/a.md#nowhere), [self](#not-here).\n\
         `[in code](docs/nothing.md)`\n```\n[in a block](docs/nothing.md)\n```\n\
         [ref]: docs/gone.md\n[fine]: docs/a.md#part\n",
    )
    .expect("write");
    fs::write(
        root.join("docs/a.md"),
        "# A\n\n## Part\n\nBack to [the top](../README.md#top).\n",
    )
    .expect("write");
    fs::write(root.join("docs/a.png"), b"\x89PNG").expect("write");
    fs::write(
        root.join("docs/history/log.md"),
        "# Log\n\n## Day one\n\n## Day two\n\n## Day two\n\n[up](../../README.md#use-it) \
         [twice](#day-two-1) [thrice](#day-two-2) [out](../../../x.md)\n",
    )
    .expect("write");
    let pages = [
        PathBuf::from("README.md"),
        PathBuf::from("docs/a.md"),
        PathBuf::from("docs/history/log.md"),
    ];
    let errors = broken_links(&root, &pages);
    fs::write(
        root.join("code.rs"),
        "// see docs/a.md#part and docs/a.md, (docs/history/log.md#day-two-1).\n\
         // gone: docs/old.md, docs/a.md#nowhere; not from the root: ../docs/x.md, docs/a.png\n",
    )
    .expect("write");
    let mentions = broken_mentions(&root, &[PathBuf::from("code.rs")]);
    let _ = fs::remove_dir_all(&root);
    assert_eq!(
        mentions,
        [
            "code.rs:2: docs/old.md: no such page",
            "code.rs:2: docs/a.md#nowhere: docs/a.md has no heading #nowhere"
        ],
    );
    let expect = [
        "README.md:6: (docs/missing.md): no such file",
        "README.md:6: (docs/a.md#nowhere): docs/a.md has no heading #nowhere",
        "README.md:6: (#not-here): README.md has no heading #not-here",
        "README.md:11: (docs/gone.md): no such file",
        "docs/history/log.md:9: (#day-two-2): docs/history/log.md has no heading #day-two-2",
        "docs/history/log.md:9: (../../../x.md): leaves the repository",
    ];
    assert_eq!(errors.len(), expect.len(), "{errors:#?}");
    for (e, x) in errors.iter().zip(expect) {
        assert!(e.starts_with(x), "{e} should start with {x}");
    }
}
