package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// mode is how a sandbox is built.
type mode int

const (
	modeNone    mode = iota
	modeUserNS       // new user and mount namespaces: any user, where the kernel allows it
	modeMountNS      // a new mount namespace alone: root, where user namespaces are refused
)

func (m mode) String() string {
	switch m {
	case modeUserNS:
		return "user+mount namespace"
	case modeMountNS:
		return "mount namespace"
	}
	return "none"
}

func candidateModes() []mode {
	if os.Geteuid() == 0 {
		return []mode{modeUserNS, modeMountNS}
	}
	return []mode{modeUserNS}
}

// setNamespaces makes cmd start in m's namespaces, keeping what
// SysProcAttr already asks (a process group of its own).
func setNamespaces(cmd *exec.Cmd, m mode) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= syscall.CLONE_NEWNS
	if m == modeUserNS {
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
}

// runInit is the init inside the namespaces: args are the probe word, or
// the count of writable directories, the directories, the tool's path and
// its argv.
func runInit(args []string) int {
	runtime.LockOSThread() // capabilities are per thread: drop them on the one that executes the tool
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "tausik sandbox: %v\n", err)
		return initFailed
	}
	var writable []string
	if args[0] != probeArg {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 || len(args) < n+3 {
			return fail(fmt.Errorf("bad arguments %q", args))
		}
		writable, args = args[1:1+n], args[1+n:]
	}
	if err := build(writable); err != nil {
		return fail(err)
	}
	if len(writable) == 0 && args[0] == probeArg {
		var st unix.Statfs_t
		if err := unix.Statfs("/", &st); err != nil || st.Flags&unix.ST_RDONLY == 0 {
			return fail(fmt.Errorf("/ is not read-only in the sandbox (%v)", err))
		}
		return 0
	}
	if err := dropCapabilities(); err != nil {
		return fail(err)
	}
	err := syscall.Exec(args[0], args[1:], os.Environ())
	return fail(fmt.Errorf("exec %s: %w", args[0], err))
}

// build makes every mount read-only, then each of writable writable again
// on a bind mount of its own. Mount events do not propagate out: the root
// is made private first.
func build(writable []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make / private: %w", err)
	}
	for _, w := range writable {
		if err := unix.Mount(w, w, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", w, err)
		}
	}
	ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, ro); err != nil {
		return fmt.Errorf("make / read-only: %w", err)
	}
	rw := &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
	for _, w := range writable {
		if err := unix.MountSetattr(unix.AT_FDCWD, w, unix.AT_RECURSIVE, rw); err != nil {
			return fmt.Errorf("make %s writable: %w", w, err)
		}
	}
	return privateShm()
}

// privateShm mounts an empty tmpfs of the namespace's own on /dev/shm:
// Python's multiprocessing (ansible-lint's) needs it writable for its
// semaphores, and what a tool writes there is gone with the namespace.
func privateShm() error {
	if info, err := os.Stat("/dev/shm"); err != nil || !info.IsDir() {
		return nil
	}
	if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=64m,mode=1777"); err != nil {
		return fmt.Errorf("mount a private /dev/shm: %w", err)
	}
	return nil
}

// dropCapabilities empties the bounding set and forbids gaining privileges,
// so the tool, root inside the namespace, holds no capability after exec:
// it cannot remount anything writable.
func dropCapabilities() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	return nil
}
