#!/usr/bin/python3
"""A file system that keeps only what was fsynced, to test power cuts.

The approach of LazyFS (https://github.com/dsrhaslab/lazyfs): programs see
an ordinary file system, but a power cut keeps of it only what a real disk
promises to keep:

- a file's data and size as of its last fsync or fdatasync (a file never
  synced is empty);
- a folder's entries as of its last fsync: a file created, renamed, linked
  or removed in a folder, or a folder made in it, survives only once that
  folder is synced. A new folder's own entries need its own sync.

Usage: powercut-fs.py IMAGE MOUNTPOINT OUT
  Loads the folder IMAGE (all of it counts as synced, as after a reboot),
  serves it in memory at MOUNTPOINT, and when told to exit writes what
  survived to the folder OUT.

Commands, one per line on stdin (each answered "ok" on stdout):
  arm OP REGEX NTH WHEN  cut the power at the NTH operation OP (write,
                         fsync, fsyncdir, rename, mkdir, create, link,
                         unlink, truncate) on a name matching REGEX (the
                         entry's name; for rename the new one), WHEN
                         "before" or "after" it is carried out; or, WHEN
                         "fail", make that operation fail with EIO once
  cut                    cut the power now
  release                answer what hangs since the cut with EIO: send
                         it once the callers are killed (SIGKILL), so that
                         they can exit; they never see the answer
  exit                   unmount, write OUT, exit
A cut prints "cut OP NAME". From then on every operation hangs, as on a
machine that stopped: the caller never hears back (the test kills it).
"""

import errno
import os
import re
import stat
import sys
import time

import pyfuse3
import trio

ROOT = pyfuse3.ROOT_INODE


class Inode:
    def __init__(self, ino, mode, name):
        self.ino = ino
        self.mode = mode
        self.name = name
        self.nlink = 2 if stat.S_ISDIR(mode) else 1
        self.data = bytearray()
        self.entries = {}
        self.times = time.time_ns()

    @property
    def is_dir(self):
        return stat.S_ISDIR(self.mode)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class PowerCutFs(pyfuse3.Operations):
    def __init__(self):
        super().__init__()
        self.inodes = {}
        self.next_ino = ROOT
        # What a power cut keeps: file data by inode, folder entries by inode.
        self.synced_data = {}
        self.synced_entries = {}
        self.trigger = None
        self.frozen = False
        self.released = trio.Event()

    # The image: loaded whole (all of it synced), and what survived written out.

    def new_inode(self, mode, name):
        inode = Inode(self.next_ino, mode, name)
        self.inodes[inode.ino] = inode
        self.next_ino += 1
        return inode

    def load(self, path, inode):
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            st = os.lstat(full)
            child = self.new_inode(st.st_mode, name)
            inode.entries[name] = child.ino
            if child.is_dir:
                inode.nlink += 1
                self.load(full, child)
            else:
                with open(full, "rb") as f:
                    child.data = bytearray(f.read())
                self.synced_data[child.ino] = bytes(child.data)
        self.synced_entries[inode.ino] = dict(inode.entries)

    def dump(self, path, ino, written):
        for name, child_ino in self.synced_entries.get(ino, {}).items():
            child = self.inodes[child_ino]
            full = os.path.join(path, name)
            if child.is_dir:
                os.mkdir(full, stat.S_IMODE(child.mode))
                self.dump(full, child_ino, written)
            elif child_ino in written:
                os.link(written[child_ino], full)
            else:
                with open(full, "wb") as f:
                    f.write(self.synced_data.get(child_ino, b""))
                os.chmod(full, stat.S_IMODE(child.mode))
                written[child_ino] = full

    # Power cuts.

    async def step(self, op, name, when):
        """Called before and after each operation that changes something: hangs once the power is cut."""
        await self.hang_if_cut()
        t = self.trigger
        # A failure is injected before the operation is carried out, so that nothing of it happens.
        phase = "before" if t and t["when"] == "fail" else t and t["when"]
        if t and t["op"] == op and phase == when and t["regex"].search(name or ""):
            t["seen"] += 1
            if t["seen"] < t["nth"]:
                return
            if t["when"] == "fail":
                self.trigger = None
                say(f"failed {op} {name}")
                raise pyfuse3.FUSEError(errno.EIO)
            self.cut(op, name)
            await self.hang_if_cut()

    def cut(self, op, name):
        self.frozen = True
        self.trigger = None
        say(f"cut {op} {name}")

    async def guarded(self, op, name, work):
        await self.step(op, name, "before")
        result = work()
        await self.step(op, name, "after")
        return result

    async def hang_if_cut(self):
        """After a cut nothing answers, until the caller is dead: a caller killed while the file system holds its request cannot exit before it is answered."""
        if self.frozen:
            await self.released.wait()
            raise pyfuse3.FUSEError(errno.EIO)

    # Attributes and lookups.

    def attr(self, inode):
        entry = pyfuse3.EntryAttributes()
        entry.st_ino = inode.ino
        entry.generation = 0
        entry.entry_timeout = 0
        entry.attr_timeout = 0
        entry.st_mode = inode.mode
        entry.st_nlink = inode.nlink
        entry.st_uid = os.getuid()
        entry.st_gid = os.getgid()
        entry.st_rdev = 0
        entry.st_size = len(inode.data) if not inode.is_dir else 4096
        entry.st_blksize = 4096
        entry.st_blocks = (entry.st_size + 511) // 512
        entry.st_atime_ns = entry.st_mtime_ns = entry.st_ctime_ns = inode.times
        return entry

    def get(self, ino):
        inode = self.inodes.get(ino)
        if inode is None:
            raise pyfuse3.FUSEError(errno.ENOENT)
        return inode

    def child(self, parent, name):
        ino = self.get(parent).entries.get(name)
        if ino is None:
            raise pyfuse3.FUSEError(errno.ENOENT)
        return self.inodes[ino]

    async def lookup(self, parent_inode, name, ctx=None):
        await self.hang_if_cut()
        name = os.fsdecode(name)
        if name == ".":
            return self.attr(self.get(parent_inode))
        return self.attr(self.child(parent_inode, name))

    async def getattr(self, inode, ctx=None):
        await self.hang_if_cut()
        return self.attr(self.get(inode))

    async def setattr(self, inode, attr, fields, fh, ctx):
        node = self.get(inode)

        def change():
            if fields.update_size:
                size = attr.st_size
                node.data = node.data[:size] + bytearray(max(0, size - len(node.data)))
            if fields.update_mode:
                node.mode = (node.mode & ~0o7777) | stat.S_IMODE(attr.st_mode)
            node.times = time.time_ns()

        await self.guarded("truncate" if fields.update_size else "setattr", node.name, change)
        return self.attr(node)

    async def access(self, inode, mode, ctx):
        return True

    async def statfs(self, ctx):
        data = pyfuse3.StatvfsData()
        data.f_bsize = data.f_frsize = 4096
        data.f_blocks = data.f_bfree = data.f_bavail = 1 << 20
        data.f_files = data.f_ffree = data.f_favail = 1 << 20
        data.f_namemax = 255
        return data

    # Folders.

    def add_entry(self, parent, name, mode, ctx):
        folder = self.get(parent)
        if name in folder.entries:
            raise pyfuse3.FUSEError(errno.EEXIST)
        node = self.new_inode(mode & ~ctx.umask, name)
        folder.entries[name] = node.ino
        if node.is_dir:
            folder.nlink += 1
        folder.times = time.time_ns()
        return node

    async def mkdir(self, parent_inode, name, mode, ctx):
        name = os.fsdecode(name)
        node = await self.guarded("mkdir", name, lambda: self.add_entry(parent_inode, name, mode | stat.S_IFDIR, ctx))
        return self.attr(node)

    async def opendir(self, inode, ctx):
        await self.hang_if_cut()
        self.get(inode)
        return inode

    async def readdir(self, fh, start_id, token):
        await self.hang_if_cut()
        names = sorted(self.get(fh).entries.items())
        for index, (name, ino) in enumerate(names[start_id:], start_id + 1):
            if not pyfuse3.readdir_reply(token, os.fsencode(name), self.attr(self.inodes[ino]), index):
                break

    async def releasedir(self, fh):
        pass

    async def fsyncdir(self, fh, datasync):
        folder = self.get(fh)

        def sync():
            self.synced_entries[fh] = dict(folder.entries)

        await self.guarded("fsyncdir", folder.name, sync)

    def drop_entry(self, parent, name, want_dir):
        folder = self.get(parent)
        node = self.child(parent, name)
        if want_dir and not node.is_dir:
            raise pyfuse3.FUSEError(errno.ENOTDIR)
        if not want_dir and node.is_dir:
            raise pyfuse3.FUSEError(errno.EISDIR)
        if want_dir and node.entries:
            raise pyfuse3.FUSEError(errno.ENOTEMPTY)
        del folder.entries[name]
        node.nlink -= 2 if want_dir else 1
        if want_dir:
            folder.nlink -= 1
        folder.times = time.time_ns()

    async def unlink(self, parent_inode, name, ctx):
        name = os.fsdecode(name)
        await self.guarded("unlink", name, lambda: self.drop_entry(parent_inode, name, False))

    async def rmdir(self, parent_inode, name, ctx):
        name = os.fsdecode(name)
        await self.guarded("rmdir", name, lambda: self.drop_entry(parent_inode, name, True))

    async def rename(self, parent_inode_old, name_old, parent_inode_new, name_new, flags, ctx):
        name_old, name_new = os.fsdecode(name_old), os.fsdecode(name_new)

        def move():
            node = self.child(parent_inode_old, name_old)
            target = self.get(parent_inode_new).entries.get(name_new)
            if target is not None:
                if flags & 1:  # RENAME_NOREPLACE
                    raise pyfuse3.FUSEError(errno.EEXIST)
                self.drop_entry(parent_inode_new, name_new, self.inodes[target].is_dir)
            del self.get(parent_inode_old).entries[name_old]
            self.get(parent_inode_new).entries[name_new] = node.ino
            if node.is_dir and parent_inode_old != parent_inode_new:
                self.get(parent_inode_old).nlink -= 1
                self.get(parent_inode_new).nlink += 1
            node.name = name_new

        await self.guarded("rename", name_new, move)

    async def link(self, inode, new_parent_inode, new_name, ctx):
        new_name = os.fsdecode(new_name)
        node = self.get(inode)

        def add():
            folder = self.get(new_parent_inode)
            if new_name in folder.entries:
                raise pyfuse3.FUSEError(errno.EEXIST)
            folder.entries[new_name] = node.ino
            node.nlink += 1

        await self.guarded("link", new_name, add)
        return self.attr(node)

    # Files.

    async def create(self, parent_inode, name, mode, flags, ctx):
        name = os.fsdecode(name)
        node = await self.guarded("create", name, lambda: self.add_entry(parent_inode, name, mode | stat.S_IFREG, ctx))
        return pyfuse3.FileInfo(fh=node.ino), self.attr(node)

    async def open(self, inode, flags, ctx):
        await self.hang_if_cut()
        node = self.get(inode)
        if flags & os.O_TRUNC:
            await self.guarded("truncate", node.name, lambda: node.data.clear())
        return pyfuse3.FileInfo(fh=inode)

    async def read(self, fh, off, size):
        await self.hang_if_cut()
        return bytes(self.get(fh).data[off : off + size])

    async def write(self, fh, off, buf):
        node = self.get(fh)

        def put():
            if off > len(node.data):
                node.data.extend(bytearray(off - len(node.data)))
            node.data[off : off + len(buf)] = buf
            node.times = time.time_ns()

        await self.guarded("write", node.name, put)
        return len(buf)

    async def fsync(self, fh, datasync):
        node = self.get(fh)

        def sync():
            self.synced_data[fh] = bytes(node.data)

        await self.guarded("fsync", node.name, sync)

    async def flush(self, fh):
        pass

    async def release(self, fh):
        pass

    async def forget(self, inode_list):
        pass


async def commands(fs, done):
    stream = trio.lowlevel.FdStream(os.dup(0))
    pending = b""
    while True:
        chunk = await stream.receive_some()
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            words = line.decode().split()
            if not words:
                continue
            if words[0] == "arm":
                op, regex, nth, when = words[1:5]
                fs.trigger = {"op": op, "regex": re.compile(regex), "nth": int(nth), "when": when, "seen": 0}
            elif words[0] == "cut":
                if not fs.frozen:
                    fs.cut("cut", "-")
            elif words[0] == "release":
                fs.released.set()
            elif words[0] == "exit":
                fs.released.set()
                say("ok")
                done.set()
                return
            say("ok")
    done.set()


async def serve(fs):
    done = trio.Event()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(commands, fs, done)

        async def stop_when_done():
            await done.wait()
            pyfuse3.terminate()

        nursery.start_soon(stop_when_done)
        # One request at a time: each is answered at once, and after a cut the one held is the only one a killed caller waits for
        # (the kernel drops requests not yet read). Several readers of /dev/fuse could block the event loop in a read.
        await pyfuse3.main(min_tasks=1, max_tasks=1)
        nursery.cancel_scope.cancel()


def main():
    image, mountpoint, out = sys.argv[1:4]
    fs = PowerCutFs()
    root = fs.new_inode(stat.S_IFDIR | 0o755, "")
    fs.load(image, root)
    options = set(pyfuse3.default_options)
    options.add("fsname=powercut")
    pyfuse3.init(fs, mountpoint, options)
    say("ready")
    try:
        trio.run(serve, fs)
    finally:
        pyfuse3.close(unmount=True)
    os.makedirs(out, exist_ok=True)
    fs.dump(out, ROOT, {})
    say("dumped")


if __name__ == "__main__":
    main()
