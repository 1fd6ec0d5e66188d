"""What changed between releases: diffs and the history of each rule."""
