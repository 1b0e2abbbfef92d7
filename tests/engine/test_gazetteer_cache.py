"""The word lists' disk cache (pipelines/gazetteers.py): what is read back is what
was built; a damaged or foreign file is rebuilt, never trusted; a cache that
cannot be written costs time, never correctness."""

from pipelines import gazetteers


def _fresh(monkeypatch, directory):
    monkeypatch.setenv("ANONYMIZER_CACHE_DIR", str(directory))
    gazetteers.us_states.cache_clear()
    return gazetteers.us_states


def test_a_list_read_back_is_the_list_built_and_readable_by_others(monkeypatch, tmp_path):
    built = _fresh(monkeypatch, tmp_path)()
    (path,) = tmp_path.glob("us_states-*.txt")
    assert path.stat().st_mode & 0o044 == 0o044  # group and others may read it
    assert not list(tmp_path.glob("tmp*"))
    assert _fresh(monkeypatch, tmp_path)() == built


def test_a_damaged_or_tampered_file_is_rebuilt(monkeypatch, tmp_path):
    built = _fresh(monkeypatch, tmp_path)()
    (path,) = tmp_path.glob("us_states-*.txt")
    header, _, body = path.read_text().partition("\n")
    path.write_text(header + "\n" + body.replace("california", "atlantis"))  # same count, other entries
    assert "atlantis" not in _fresh(monkeypatch, tmp_path)()
    path.write_text(header + "\n" + body[: len(body) // 2])  # an interrupted write
    assert _fresh(monkeypatch, tmp_path)() == built


def test_an_unwritable_cache_still_gives_the_lists(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    assert "california" in _fresh(monkeypatch, blocked / "cache")()


def test_unreadable_sources_mean_no_disk_cache(monkeypatch, tmp_path):
    monkeypatch.setattr(gazetteers, "_key", lambda: (_ for _ in ()).throw(OSError("no .py files")))
    gazetteers._cache_key.cache_clear()
    try:
        assert "california" in _fresh(monkeypatch, tmp_path)()
        assert not list(tmp_path.iterdir())
    finally:
        gazetteers._cache_key.cache_clear()
