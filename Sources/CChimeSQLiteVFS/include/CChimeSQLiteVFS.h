#ifndef CCHIME_SQLITE_VFS_H
#define CCHIME_SQLITE_VFS_H

/// Registers, once, a VFS that is SQLite's default one ("unix") but for the write-ahead
/// log, where each frame's 24-byte header and the page after it go to the kernel in one
/// `pwrite` rather than two. Made the default VFS, so that every connection of the
/// process opened after it uses it. Returns SQLITE_OK, or SQLite's error.
int chime_wal_frames_register(void);

/// How many frames were written in one `pwrite`, header and page, since the process
/// started: what shows that the log's writes go through this VFS.
unsigned long chime_wal_frames_joined(void);

#endif
