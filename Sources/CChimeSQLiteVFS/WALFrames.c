// One `pwrite` per frame of a SQLite write-ahead log.
//
// SQLite writes each frame of its log in two calls (wal.c, walWriteOneFrame): the 24-byte
// frame header, then the page at the offset right after it. Firing 10,000 notifications
// from a store of a million was 27,000 `pwrite`s into the log on the firing thread, half
// of them 24 bytes long. This VFS is SQLite's own ("unix") with the log's writes wrapped:
// the header of a new frame, appended past everything this handle has written and at a
// frame's place (32 + n × (24 + page size)), is held back and written together with the
// page that follows it, which SQLite writes next, before anything else. Only such an
// append is held: SQLite also writes headers in place (walRewriteChecksums, at a commit
// that changes a page already spilled into the log), and one of those held was the commit
// frame's header, left unwritten until the connection next touched the log: a process
// killed meanwhile lost the whole committed transaction (recovery stops at a frame whose
// checksum fails). Whatever else is asked of the file (a read, a sync, a lock, its size,
// closing it) writes a held header first. A process killed while a new frame's header is
// held has written neither it nor its page: as if killed just before the frame, which
// SQLite's recovery already handles (a log is only as long as its last whole commit).
//
// Written by hand: SQLite has no option for it, and no library does it.

#include "CChimeSQLiteVFS.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

enum { FRAME_HEADER = 24 };

enum { LOG_HEADER = 32 };

typedef struct {
    sqlite3_file base;        // pMethods: the log's methods below
    sqlite3_file *real;       // the unix VFS's file, in the memory after this struct
    sqlite3_int64 heldOffset; // where the held header goes; -1 when none is held
    sqlite3_int64 end;        // the end of what this handle wrote since the log started
    int pageSize;             // from the log's header; 0 until read
    unsigned char held[FRAME_HEADER];
    unsigned char *joined;    // a header and its page, written together
    int joinedSize;
} LogFile;

static unsigned long framesJoined;
static sqlite3_vfs *unixVFS;
static sqlite3_vfs chimeVFS;
static sqlite3_io_methods logMethods;

/// The page size a log header names (big-endian at bytes 8–11); 0 when it names none.
static int pageSizeIn(const unsigned char *header) {
    int size = (header[8] << 24) | (header[9] << 16) | (header[10] << 8) | header[11];
    return size >= 512 && size <= 65536 && (size & (size - 1)) == 0 ? size : 0;
}

/// The page size of the log, from its header: as this handle wrote it, else read once.
static int pageSize(LogFile *file) {
    if (file->pageSize == 0) {
        unsigned char header[LOG_HEADER];
        if (file->real->pMethods->xRead(file->real, header, LOG_HEADER, 0) == SQLITE_OK) file->pageSize = pageSizeIn(header);
    }
    return file->pageSize;
}

/// Whether a write of a frame's header at `offset` appends a new frame: past everything
/// this handle wrote since the log started, at a frame's place.
static int appendsFrame(LogFile *file, sqlite3_int64 offset) {
    if (offset < LOG_HEADER || offset < file->end) return 0;
    int size = pageSize(file);
    return size > 0 && (offset - LOG_HEADER) % (FRAME_HEADER + size) == 0;
}

/// Writes through to the unix VFS's file, keeping the end of what was written.
static int writeThrough(LogFile *file, const void *data, int amount, sqlite3_int64 offset) {
    if (offset == 0) {
        // The log starts (again), its header naming the page size.
        file->end = 0;
        file->pageSize = amount >= LOG_HEADER ? pageSizeIn(data) : 0;
    }
    int rc = file->real->pMethods->xWrite(file->real, data, amount, offset);
    if (rc == SQLITE_OK && offset + amount > file->end) file->end = offset + amount;
    return rc;
}

/// Writes the held header, if any, where it goes.
static int writeHeld(LogFile *file) {
    if (file->heldOffset < 0) return SQLITE_OK;
    sqlite3_int64 offset = file->heldOffset;
    file->heldOffset = -1;
    return writeThrough(file, file->held, FRAME_HEADER, offset);
}

static int logWrite(sqlite3_file *f, const void *data, int amount, sqlite3_int64 offset) {
    LogFile *file = (LogFile *)f;
    if (file->heldOffset >= 0 && offset == file->heldOffset + FRAME_HEADER && amount > 0 && amount <= 65536) {
        int size = FRAME_HEADER + amount;
        if (file->joinedSize < size) {
            unsigned char *grown = realloc(file->joined, (size_t)size);
            if (grown == NULL) {
                int rc = writeHeld(file);
                return rc != SQLITE_OK ? rc : writeThrough(file, data, amount, offset);
            }
            file->joined = grown;
            file->joinedSize = size;
        }
        memcpy(file->joined, file->held, FRAME_HEADER);
        memcpy(file->joined + FRAME_HEADER, data, (size_t)amount);
        sqlite3_int64 start = file->heldOffset;
        file->heldOffset = -1;
        __atomic_add_fetch(&framesJoined, 1, __ATOMIC_RELAXED);
        return writeThrough(file, file->joined, size, start);
    }
    int rc = writeHeld(file);
    if (rc != SQLITE_OK) return rc;
    if (amount == FRAME_HEADER && appendsFrame(file, offset)) {
        memcpy(file->held, data, FRAME_HEADER);
        file->heldOffset = offset;
        return SQLITE_OK;
    }
    return writeThrough(file, data, amount, offset);
}

static int logClose(sqlite3_file *f) {
    LogFile *file = (LogFile *)f;
    int held = writeHeld(file);
    int rc = file->real->pMethods->xClose(file->real);
    free(file->joined);
    file->joined = NULL;
    return held != SQLITE_OK ? held : rc;
}

// Every other method writes a held header first, then asks the unix VFS's file.
#define HELD_FIRST(file) \
    LogFile *file = (LogFile *)f; \
    int held = writeHeld(file); \
    if (held != SQLITE_OK) return held

static int logRead(sqlite3_file *f, void *data, int amount, sqlite3_int64 offset) {
    HELD_FIRST(file);
    return file->real->pMethods->xRead(file->real, data, amount, offset);
}
static int logTruncate(sqlite3_file *f, sqlite3_int64 size) {
    HELD_FIRST(file);
    if (size < file->end) file->end = size;
    return file->real->pMethods->xTruncate(file->real, size);
}
static int logSync(sqlite3_file *f, int flags) {
    HELD_FIRST(file);
    return file->real->pMethods->xSync(file->real, flags);
}
static int logFileSize(sqlite3_file *f, sqlite3_int64 *size) {
    HELD_FIRST(file);
    return file->real->pMethods->xFileSize(file->real, size);
}
static int logLock(sqlite3_file *f, int level) {
    HELD_FIRST(file);
    return file->real->pMethods->xLock(file->real, level);
}
static int logUnlock(sqlite3_file *f, int level) {
    HELD_FIRST(file);
    return file->real->pMethods->xUnlock(file->real, level);
}
static int logCheckReservedLock(sqlite3_file *f, int *out) {
    HELD_FIRST(file);
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}
static int logFileControl(sqlite3_file *f, int op, void *arg) {
    HELD_FIRST(file);
    return file->real->pMethods->xFileControl(file->real, op, arg);
}
static int logSectorSize(sqlite3_file *f) {
    LogFile *file = (LogFile *)f;
    return file->real->pMethods->xSectorSize(file->real);
}
static int logDeviceCharacteristics(sqlite3_file *f) {
    LogFile *file = (LogFile *)f;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}
static int chimeOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags, int *outFlags) {
    (void)vfs;
    if (!(flags & SQLITE_OPEN_WAL)) {
        // Anything but a log is the unix VFS's file as it is, in the same memory.
        return unixVFS->xOpen(unixVFS, name, f, flags, outFlags);
    }
    LogFile *file = (LogFile *)f;
    memset(file, 0, sizeof(LogFile));
    file->real = (sqlite3_file *)(file + 1);
    file->heldOffset = -1;
    int rc = unixVFS->xOpen(unixVFS, name, file->real, flags, outFlags);
    if (file->real->pMethods == NULL) {
        file->base.pMethods = NULL;
        return rc;
    }
    file->base.pMethods = &logMethods;
    return rc;
}

static int registered = SQLITE_ERROR;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void registerOnce(void) {
    unixVFS = sqlite3_vfs_find("unix");
    if (unixVFS == NULL) return;
    chimeVFS = *unixVFS;
    chimeVFS.zName = "chime-unix";
    chimeVFS.szOsFile = (int)sizeof(LogFile) + unixVFS->szOsFile;
    chimeVFS.xOpen = chimeOpen;
    chimeVFS.pNext = NULL;
    // Version 1: SQLite asks the shared memory (version 2) and memory mapping (version 3)
    // of the database file only, never of its log.
    logMethods = (sqlite3_io_methods){
        .iVersion = 1,
        .xClose = logClose, .xRead = logRead, .xWrite = logWrite, .xTruncate = logTruncate, .xSync = logSync,
        .xFileSize = logFileSize, .xLock = logLock, .xUnlock = logUnlock, .xCheckReservedLock = logCheckReservedLock,
        .xFileControl = logFileControl, .xSectorSize = logSectorSize, .xDeviceCharacteristics = logDeviceCharacteristics,
    };
    registered = sqlite3_vfs_register(&chimeVFS, 1);
}

unsigned long chime_wal_frames_joined(void) {
    return __atomic_load_n(&framesJoined, __ATOMIC_RELAXED);
}

int chime_wal_frames_register(void) {
    pthread_once(&once, registerOnce);
    return registered;
}
