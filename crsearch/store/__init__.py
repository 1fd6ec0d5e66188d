"""The data folder: imported releases on disk, written atomically, read fast,
repaired, looked up by number."""
