package policy

// Checks keyed on a harm (docs/threat-model.md) rather than on a program:
// what a command's output lands on (a block device, a system file, the
// kernel's control files), what it moves away or widens, which secrets it
// hunts for or sends, and which destroy verbs it gives a cloud or volume
// CLI.

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// blockDevRe matches block devices: disks, partitions, device-mapper, RAID,
// loop and network block devices. Optical drives (sr*) only count for
// burners (see burners).
var blockDevRe = &lazyregexp.Regexp{Expr: `^/dev/(sd[a-z]+|hd[a-z]+|vd[a-z]+|xvd[a-z]+|nvme\d+(n\d+)?|mmcblk\d+|r?disk\d+|mapper/[^/]+|md\d*|md/[^/]+|loop\d+|dm-\d+|nbd\d+|zd\d+|disk/by-[a-z]+/[^/]+|mtdblock\d+|ubd[a-z]?)(p?\d+|s\d+)?$`}

var opticalDevRe = &lazyregexp.Regexp{Expr: `^/dev/(sr\d+|cdrom|cdrw|dvd|dvdrw)$`}

// deviceReaders only read a device, list it or attach it; a device operand
// given to them destroys nothing.
var deviceReaders = []string{
	"lsblk", "blkid", "mount", "umount", "eject", "findmnt", "smartctl", "file", "stat", "ls", "df", "du",
	"cat", "head", "tail", "less", "more", "xxd", "od", "hexdump", "hd", "strings", "cmp", "sha256sum", "md5sum",
	"dumpe2fs", "dump.exfat", "tune.exfat", "tune2fs", "e2label", "xfs_info", "xfs_admin", "fsck", "e2fsck", "fsck.*",
	"dmstats", "lvm_import_vdo", "stty", "mpremote", "screen", "minicom", "picocom", "fswebcam", "udisksctl", "hdiutil",
	"pvdisplay", "vgdisplay", "lvdisplay", "pvs", "vgs", "lvs", "losetup", "partx", "kpartx", "blockdev",
	"iostat", "iotop", "hdparm", "sg_inq", "sdparm", "isoinfo", "handbrakecli", "ffmpeg", "mplayer", "vlc", "mpv",
	"cryptsetup", "mdadm", "nvme", "btrfs", "zpool", "zfs", "badblocks", "dd", "docker", "podman", "test", "[",
	"readlink", "realpath", "echo", "printf", "grep", "udevadm", "fuser", "lsof", "ddrescue",
	"pv", "gzip", "xz", "zstd", "lz4", "bzip2", "pigz", "sha1sum", "sha512sum", "b2sum", "b3sum", "cksum", "crc32",
	"resize2fs", "fatlabel", "exfatlabel", "ntfslabel", "swapon", "swapoff", "partprobe", "testdisk", "photorec",
	"xfs_repair", "ntfsfix", "dosfsck", "ntfs-3g", "ntfsinfo", "guestmount", "lshw", "hwinfo", "lsscsi", "sg_map",
	"pmount", "pumount", "dislocker", "dmsetup", "multipath", "iscsiadm", "wipe-info", "qemu-img", "virt-filesystems",
}

// deviceWriters write the device they are given whatever option precedes
// it (ventoy -i installs onto it).
var deviceWriters = []string{"ventoy", "bmaptool", "rpi-imager", "etcher", "etcher-cli", "balena", "grub-install", "grub2-install",
	"limine", "syslinux", "extlinux", "bootctl", "efibootmgr", "mkusb", "woeusb", "unetbootin", "popsicle", "caligula"}

// deviceInputOpts introduce a device that is read (dcfldd if=/dev/sdb,
// partclone -s /dev/sdb1, dvdbackup -i /dev/sr0).
var deviceInputOpts = []string{"if", "-if", "--if", "-i", "--input", "input", "-s", "--source", "source", "src", "--src", "-d", "--device"}

// deviceJudgedElsewhere are the tools disk.mkfs, disk.partition and
// disk.shred judge with their own listing modes.
var deviceJudgedElsewhere = []string{"mke2fs", "mkswap", "newfs", "newfs_apfs", "newfs_hfs", "fdisk", "sfdisk", "cfdisk", "gdisk",
	"sgdisk", "parted", "wipefs", "blkdiscard", "diskutil", "shred"}

// burners write optical discs.
var burners = []string{"cdrecord", "wodim", "growisofs", "xorriso", "cdrskin", "brasero", "dvd+rw-format", "cdrdao"}

// listingWords make any device tool only print (the short listing flags
// of the partitioning tools are judged by disk.partition).
var listingWords = []string{"--list", "--print", "--help", "--version", "--dry-run", "--noact", "--info", "--scanbus", "-scanbus", "--devices"}

func blockDevice(p string) bool { return blockDevRe.MatchString(p) }

// checkDeviceTarget: any program given a block device as an operand or an
// output (bmaptool copy img /dev/sdb, grub-install /dev/sdb, ventoy -i
// /dev/sdb, cryptsetup luksFormat /dev/sdb1, mdadm --zero-superblock ...),
// and the destructive modes of the tools that otherwise only read it.
func checkDeviceTarget(c *Call) Finding {
	name := c.Ex.Name
	if name == "" || deviceListing(c) {
		return Finding{}
	}
	d := deviceCall{c: c, devs: c.devices(), ops: operands(c.Args)}
	if len(d.devs) == 0 && name != "zpool" && name != "zfs" && name != "nvme" {
		return Finding{}
	}
	for _, t := range deviceTools {
		if slices.Contains(t.names, name) {
			return t.judge(d)
		}
	}
	if slices.Contains(deviceReaders, name) || slices.Contains(deviceJudgedElsewhere, name) || strings.HasPrefix(name, "fsck.") || strings.HasPrefix(name, "mkfs") {
		return Finding{} // reading, or judged by the dd/mkfs/partition rules
	}
	return d.destroys("writes")
}

// deviceListing reports whether a call only lists or reads (--list,
// --help, a burner's read mode).
func deviceListing(c *Call) bool {
	for _, a := range c.Args {
		if slices.Contains(listingWords, a) || slices.Contains(burners, c.Ex.Name) && strings.HasPrefix(a, "read") {
			return true
		}
	}
	return false
}

// deviceCall is a call given block devices devs, with its operands ops.
type deviceCall struct {
	c         *Call
	devs, ops []string
}

// destroys is the finding that the call does verb to its last device.
func (d deviceCall) destroys(verb string) Finding {
	dev := ""
	if len(d.devs) > 0 {
		dev = " " + d.devs[len(d.devs)-1]
	}
	return hit(d.c.Ex.Name + " " + verb + dev + ", destroying what the disk holds")
}

// verbIn reports whether the first operand is one of verbs.
func (d deviceCall) verbIn(verbs ...string) bool {
	return len(d.ops) > 0 && slices.Contains(verbs, d.ops[0])
}

// destroysIf is d.destroys(verb) when cond holds.
func (d deviceCall) destroysIf(cond bool, verb string) Finding {
	if cond {
		return d.destroys(verb)
	}
	return Finding{}
}

// deviceTool judges the programs named names given a block device (or,
// for zpool, zfs and nvme, any call): they destroy it only in some modes.
type deviceTool struct {
	names []string
	judge func(d deviceCall) Finding
}

// deviceTools are the programs whose destructive modes are told apart
// from their reading ones.
var deviceTools = []deviceTool{
	{[]string{"cryptsetup"}, func(d deviceCall) Finding {
		return d.destroysIf(len(d.ops) > 0 && slices.Contains([]string{"luksformat", "erase", "lukserase", "reencrypt", "luksremovekey", "luksKillSlot", "lukskillslot", "repair"}, strings.ToLower(d.ops[0])),
			"rewrites the encryption header of")
	}},
	{[]string{"mdadm"}, func(d deviceCall) Finding {
		return d.destroysIf(hasArg(d.c.Args, "--create", "-C", "--zero-superblock", "--build", "-B", "--grow", "-G", "--add", "-a"), "writes RAID metadata over")
	}},
	{[]string{"nvme"}, func(d deviceCall) Finding {
		return d.destroysIf(d.verbIn("format", "sanitize", "write-zeroes", "write", "ns-delete", "delete-ns", "dsm"), "erases")
	}},
	{[]string{"hdparm"}, func(d deviceCall) Finding {
		return d.destroysIf(slices.ContainsFunc(d.c.Args, func(a string) bool {
			return strings.HasPrefix(a, "--security-erase") || a == "--trim-sector-ranges" || a == "--write-sector" || a == "--make-bad-sector" || a == "--dco-restore" || a == "--security-set-pass"
		}), "erases")
	}},
	{[]string{"badblocks"}, func(d deviceCall) Finding {
		return d.destroysIf(hasArg(d.c.Args, "-w", "-n") || hasShortFlag(d.c.Args, 'w'), "overwrites")
	}},
	{[]string{"zpool"}, func(d deviceCall) Finding {
		return hitIf(d.verbIn("create", "add", "attach", "replace", "destroy", "labelclear", "split", "initialize"),
			func() string {
				return "zpool " + d.ops[0] + " writes pool labels over disks or destroys a pool and its data"
			})
	}},
	{[]string{"zfs"}, func(d deviceCall) Finding {
		return hitIf(len(d.ops) > 0 && (d.ops[0] == "destroy" || d.ops[0] == "rollback" && hasArg(d.c.Args, "-r", "-R")),
			func() string { return "zfs " + d.ops[0] + " destroys datasets or snapshots and their data" })
	}},
	{[]string{"btrfs"}, func(d deviceCall) Finding {
		return d.destroysIf(len(d.ops) > 1 && d.ops[0] == "device" && d.ops[1] == "add" || hasArg(d.ops, "replace"), "adds to a file system (formatting)")
	}},
	{[]string{"qemu-img"}, qemuImgOverDevice},
	{[]string{"ddrescue"}, func(d deviceCall) Finding {
		// ddrescue in out [log]: the device is destroyed in output position.
		if len(d.ops) >= 2 && blockDevice(d.c.resolve(d.ops[1])) {
			return hit("ddrescue writes over the device " + d.c.resolve(d.ops[1]) + ", destroying what it holds")
		}
		return Finding{}
	}},
}

// qemuImgOverDevice: qemu-img convert in out and qemu-img dd with a device
// as the output.
func qemuImgOverDevice(d deviceCall) Finding {
	ops := d.ops
	if len(ops) >= 3 && ops[0] == "convert" && blockDevice(d.c.resolve(ops[len(ops)-1])) || len(ops) > 0 && ops[0] == "dd" && len(d.devs) > 0 {
		return hit("qemu-img writes an image over " + d.devs[len(d.devs)-1] + ", destroying what the disk holds")
	}
	return Finding{}
}

func hasShortFlag(args []string, f byte) bool {
	for _, a := range args {
		if strings.IndexByte(shortFlags(a), f) >= 0 {
			return true
		}
	}
	return false
}

// shortFlags is the cluster of one-letter flags a word gives (-gAf: "gAf"),
// "" when it is not one.
func shortFlags(a string) string {
	if len(a) > 1 && a[0] == '-' && a[1] != '-' {
		return a[1:]
	}
	return ""
}

// devices lists the block devices among a call's words (operands, option
// values after =, dd-style key=value). A burner's optical drive counts.
func (c *Call) devices() []string {
	var out []string
	writer := slices.Contains(deviceWriters, c.Ex.Name)
	for j, a := range c.Args {
		if !strings.Contains(a, "/dev/") {
			continue
		}
		if i := strings.LastIndexByte(a, '='); i >= 0 {
			if !writer && slices.Contains(deviceInputOpts, a[:i]) {
				continue
			}
			a = a[i+1:]
		} else if !writer && j > 0 && slices.Contains(deviceInputOpts, c.Args[j-1]) {
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		p := c.resolve(a)
		if blockDevice(p) || opticalDevRe.MatchString(p) && slices.Contains(burners, c.Ex.Name) {
			out = append(out, p)
		}
	}
	return out
}

// verbRule is a program that destroys storage or a device when given one of
// words (any argument), or whatever it is given when words is nil.
type verbRule struct {
	name  string
	words []string
	what  string
}

// matchVerbs judges a call against a table of verbRules.
func matchVerbs(c *Call, table []verbRule) Finding {
	if hasArg(c.Args, "--help", "-h") {
		return Finding{}
	}
	for _, v := range table {
		if v.name != c.Ex.Name {
			continue
		}
		if v.words == nil {
			return hit(c.Ex.Name + " " + v.what)
		}
		for _, a := range c.Args {
			if slices.Contains(v.words, a) {
				return hit(c.Ex.Name + " " + a + " " + v.what)
			}
		}
	}
	return Finding{}
}

// volumeVerbs destroy storage named by a volume or pool name rather than a
// device path.
var volumeVerbs = []verbRule{
	{"lvremove", nil, "deletes logical volumes and their data"},
	{"vgremove", nil, "deletes volume groups and their data"},
	{"pvremove", nil, "wipes LVM labels from physical volumes"},
	{"lvreduce", nil, "shrinks a logical volume, cutting off its data"},
	{"stratis", []string{"create", "add-data", "destroy", "init-cache", "add-cache"}, "writes or destroys a storage pool or file system"},
	{"ceph", []string{"delete", "rm", "purge", "destroy", "zap"}, "deletes a storage pool or its data"},
	{"rbd", []string{"rm", "remove", "purge", "trash"}, "deletes block images"},
	{"virsh", []string{"vol-delete", "vol-wipe", "pool-delete", "snapshot-delete"}, "deletes virtual machine storage"},
	{"qm", []string{"destroy"}, "destroys a virtual machine and its disks"},
	{"pct", []string{"destroy"}, "destroys a container and its disks"},
}

func checkVolumeVerb(c *Call) Finding {
	if f := matchVerbs(c, volumeVerbs); f.Hit {
		return f
	}
	ops := operands(c.Args)
	switch c.Ex.Name {
	case "diskutil":
		return diskutilErases(ops)
	case "asr":
		return hitIf(hasArg(c.Args, "--erase", "-erase"), func() string { return "asr --erase erases the target volume" })
	case "gpart": // FreeBSD
		return hitIf(len(ops) > 0 && slices.Contains([]string{"destroy", "delete", "create", "bootcode", "resize", "recover"}, ops[0]),
			func() string { return "gpart " + ops[0] + " rewrites or destroys a partition table" })
	case "virsh":
		return hitIf(slices.Contains(ops, "undefine") && (hasArg(c.Args, "--remove-all-storage", "--wipe-storage") || hasPrefixArg(c.Args, "--storage")),
			func() string { return "virsh undefine removes the machine together with its storage" })
	case "vboxmanage":
		return vboxDeletes(c, ops)
	case "btrfs":
		return hitIf(len(ops) > 1 && (ops[0] == "subvolume" || ops[0] == "sub" || ops[0] == "device" || ops[0] == "dev") && (ops[1] == "delete" || ops[1] == "del" || ops[1] == "remove"),
			func() string {
				return "btrfs " + ops[0] + " " + ops[1] + " deletes a subvolume or removes a device with its data"
			})
	case "qmrestore", "pct-restore":
		return hitIf(hasArg(c.Args, "--force", "-force"), func() string { return c.Ex.Name + " --force restores over an existing machine, destroying it" })
	}
	return Finding{}
}

// diskutilVerbs are macOS diskutil's verbs (case-insensitive) that erase,
// repartition or delete.
var diskutilVerbs = []string{"erasedisk", "erasevolume", "partitiondisk", "zerodisk", "randomdisk", "secureerase", "reformat", "deletecontainer", "deletevolume",
	"deletepartition", "splitpartition", "mergepartitions", "erasecd", "eraseoptical", "deleteplaceholder", "deletesnapshot", "delete",
	"resizecontainer", "resizevolume", "convert", "revert", "create", "createraid", "createset", "addmember", "removemember"}

// diskutilErases: one of diskutilVerbs among the first three operands.
func diskutilErases(ops []string) Finding {
	for _, o := range ops[:min(len(ops), 3)] {
		if slices.Contains(diskutilVerbs, strings.ToLower(o)) {
			return hit("diskutil " + o + " erases, repartitions or deletes a disk, volume or container")
		}
	}
	return Finding{}
}

// vboxDeletes: VBoxManage deleting a machine's disks or a disk image, or
// terminating a cloud instance.
func vboxDeletes(c *Call, ops []string) Finding {
	if slices.Contains(ops, "unregistervm") && hasArg(c.Args, "--delete", "--delete-all") {
		return hit("VBoxManage unregistervm --delete deletes the machine and its disk images")
	}
	if slices.Contains(ops, "closemedium") && hasArg(c.Args, "--delete") {
		return hit("VBoxManage closemedium --delete deletes a disk image")
	}
	if slices.Contains(ops, "terminate") {
		return hit("VBoxManage terminates a cloud instance")
	}
	return Finding{}
}

func hasPrefixArg(args []string, prefix string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, prefix) {
			return true
		}
	}
	return false
}

// factoryResets erase a device, a security key's credentials or a node.
var factoryResets = []verbRule{
	{"ykman", []string{"reset"}, "erases the device or the credentials and data it holds"},
	{"gpg-card", []string{"factory-reset"}, "erases the device or the credentials and data it holds"},
	{"fastboot", []string{"lock", "unlock", "erase", "format", "-w", "flashall", "wipe-super", "flashing"}, "erases the device or the credentials and data it holds"},
	{"steamos-factory-reset", nil, "erases the device or the credentials and data it holds"},
	{"steamos-factory-reset-config", nil, "erases the device or the credentials and data it holds"},
	{"k3s-uninstall.sh", nil, "uninstalls the cluster and deletes all its data"},
	{"k3s-agent-uninstall.sh", nil, "uninstalls the cluster and deletes all its data"},
	{"rke2-uninstall.sh", nil, "uninstalls the cluster and deletes all its data"},
	{"talosctl", []string{"reset"}, "wipes the node"},
	{"rabbitmqctl", []string{"reset", "force_reset"}, "deletes all the broker's data"},
	{"balena", []string{"flash"}, "writes an OS image over a drive"},
	{"etcher", nil, "writes an OS image over a drive"},
	{"balena-etcher", nil, "writes an OS image over a drive"},
	{"sg_format", nil, "low-level formats a disk"},
	{"flashrom", []string{"-w", "--write", "-E", "--erase"}, "rewrites or erases the firmware"},
}

func checkFactoryReset(c *Call) Finding { return matchVerbs(c, factoryResets) }

// kernelTool judges the programs named names: a hit when the call
// replaces, stops or reconfigures the running kernel, its modules, the
// firmware's boot entries, the mounts or the network the system needs.
type kernelTool struct {
	names []string
	judge func(c *Call) Finding
}

// kernelTools are the programs checkKernelControl judges, by name.
var kernelTools = []kernelTool{
	{[]string{"kexec"}, func(c *Call) Finding {
		return hitIf(!hasArg(c.Args, "--help", "-h", "--version"), func() string { return "kexec loads or boots another kernel, replacing the running system" })
	}},
	{[]string{"sysctl"}, sysctlWrites},
	{[]string{"efibootmgr"}, efibootmgrChanges},
	{[]string{"kextunload", "kextload", "kldunload", "kldload"}, func(c *Call) Finding {
		return hitIf(len(c.Args) > 0 && !hasArg(c.Args, "--help", "-h"), func() string { return c.Ex.Name + " changes the modules of the running kernel" })
	}},
	{[]string{"kmutil"}, func(c *Call) Finding {
		ops := operands(c.Args)
		return hitIf(len(ops) > 0 && (ops[0] == "load" || ops[0] == "unload" || ops[0] == "install"), func() string { return "kmutil " + ops[0] + " changes the kernel's extensions" })
	}},
	{[]string{"nvram"}, nvramChanges},
	{[]string{"swapoff"}, func(c *Call) Finding {
		return hitIf(hasArg(c.Args, "-a", "--all"), func() string {
			return "swapoff -a turns all swap off: the machine can run out of memory and kill processes"
		})
	}},
	{[]string{"umount"}, umountsSystem},
	{[]string{"mount"}, remountsSystemReadOnly},
	{[]string{"ip"}, func(c *Call) Finding {
		ops := operands(c.Args)
		return hitIf(len(ops) >= 4 && (ops[0] == "link" || ops[0] == "l") && ops[1] == "set" && ops[len(ops)-1] == "down" && !strings.HasPrefix(ops[len(ops)-2], "lo"),
			func() string { return "ip link set … down cuts the machine off the network" })
	}},
	{[]string{"ifconfig", "ifdown"}, func(c *Call) Finding {
		ops := operands(c.Args)
		return hitIf(c.Ex.Name == "ifdown" && len(ops) > 0 || len(ops) >= 2 && ops[len(ops)-1] == "down" && ops[0] != "lo" && ops[0] != "lo0",
			func() string { return c.Ex.Name + " cuts the machine off the network" })
	}},
	{[]string{"nmcli"}, func(c *Call) Finding {
		ops := operands(c.Args)
		return hitIf(len(ops) >= 2 && (ops[0] == "networking" || ops[0] == "n") && ops[1] == "off", func() string { return "nmcli networking off cuts the machine off the network" })
	}},
	{[]string{"insmod", "rmmod"}, func(c *Call) Finding {
		return hitIf(len(operands(c.Args)) > 0, func() string { return c.Ex.Name + " changes the modules of the running kernel" })
	}},
	{[]string{"modprobe"}, func(c *Call) Finding {
		return hitIf(len(operands(c.Args)) > 0 && !hasArg(c.Args, "-n", "--dry-run", "--show-depends", "-D", "-c", "--showconfig"),
			func() string { return "modprobe changes the modules of the running kernel" })
	}},
}

// kernelControl: writes to the kernel's control files and the commands
// that replace or stop the running kernel.
func checkKernelControl(c *Call) Finding {
	if f := kernelFileWritten(c); f.Hit {
		return f
	}
	for _, t := range kernelTools {
		if slices.Contains(t.names, c.Ex.Name) {
			return t.judge(c)
		}
	}
	return Finding{}
}

// kernelFileWritten: a write to /proc/sysrq-trigger, /proc/sys or /sys
// (but the tracing marker).
func kernelFileWritten(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		if p == "/proc/sysrq-trigger" {
			return hit("writes /proc/sysrq-trigger, which can crash, reboot or power off the machine at once")
		}
		if under(p, "/proc/sys") || under(p, "/sys") && !strings.HasPrefix(p, "/sys/kernel/debug/tracing/trace_marker") {
			return hit("writes the kernel setting " + p)
		}
	}
	return Finding{}
}

func sysctlWrites(c *Call) Finding {
	for _, a := range c.Args {
		if a == "-w" || a == "--write" || a == "-p" || a == "--load" || a == "--system" || !strings.HasPrefix(a, "-") && strings.Contains(a, "=") {
			return hit("sysctl changes kernel settings of the running system")
		}
	}
	return Finding{}
}

func efibootmgrChanges(c *Call) Finding {
	for _, a := range c.Args {
		if efibootChanges.MatchString(a) {
			return hit("efibootmgr " + a + " changes the firmware's boot entries: what the machine boots next, or whether it boots")
		}
	}
	return Finding{}
}

// nvramChanges: firmware variables (boot arguments, SIP's, the boot disk)
// set, deleted or cleared.
func nvramChanges(c *Call) Finding {
	for _, a := range c.Args {
		if a == "-d" || a == "-c" || a == "-f" || !strings.HasPrefix(a, "-") && strings.Contains(a, "=") {
			return hit("nvram " + a + " changes the firmware's variables (how the machine boots)")
		}
	}
	return Finding{}
}

func umountsSystem(c *Call) Finding {
	if hasArg(c.Args, "-a", "--all") || hasShortFlag(c.Args, 'a') {
		return hit("umount -a unmounts every file system")
	}
	for _, o := range operands(c.Args) {
		if systemMount(c.resolve(o)) {
			return hit("umount " + o + " unmounts a file system the running system needs")
		}
	}
	return Finding{}
}

// remountsSystemReadOnly: mount -o remount,ro of a system mount.
func remountsSystemReadOnly(c *Call) Finding {
	for i := range c.Args {
		opts, ok := mountOptions(c.Args, i)
		if !ok || !strings.Contains(opts, "remount") || !slices.Contains(strings.Split(opts, ","), "ro") {
			continue
		}
		for _, o := range operands(c.Args) {
			if o != opts && systemMount(c.resolve(o)) {
				return hit("mount -o " + opts + " " + o + " remounts a file system the running system needs")
			}
		}
	}
	return Finding{}
}

// mountOptions is the value of mount's -o/--options at args[i] (-oX, -o X,
// --options=X, --options X).
func mountOptions(args []string, i int) (string, bool) {
	a := args[i]
	switch {
	case a == "-o" && i+1 < len(args):
		return args[i+1], true
	case strings.HasPrefix(a, "--options="):
		return strings.TrimPrefix(a, "--options="), true
	case a == "--options" && i+1 < len(args):
		return args[i+1], true
	}
	return strings.CutPrefix(a, "-o")
}

// systemMount reports whether p is a mount point the running system needs:
// unmounting or remounting it read-only stops the machine working.
func systemMount(p string) bool {
	switch p {
	case "/", "/usr", "/boot", "/boot/efi", "/var", "/home", "/etc", "/opt", "/System/Volumes/Data":
		return true
	}
	return false
}

// efibootChanges are efibootmgr's options that write the firmware's boot
// entries (create, delete, order, next boot, active flag), in short
// clusters or long form.
var efibootChanges = &lazyregexp.Regexp{Expr: `^(-[a-zA-Z]*[cBoOnNaAD][a-zA-Z]*|--(create|create-only|delete-bootnum|bootorder|delete-bootorder|bootnext|delete-bootnext|active|inactive|remove-dups)(=.*)?)$`}

// privileged persistence: files that run code as root or at every login or
// boot, or that grant privileges.
var persistPaths = []struct{ prefix, what string }{
	{"/etc/sudoers", "grants sudo rights"},
	{"/etc/doas.conf", "grants doas rights"},
	{"/etc/ld.so.preload", "preloads a library into every program"},
	{"/etc/ld.so.conf", "changes where every program loads libraries from"},
	{"/etc/profile", "runs at every login"},
	{"/etc/bash.bashrc", "runs in every shell"},
	{"/etc/environment", "sets the environment of every login"},
	{"/etc/pam.d/", "changes how every login is authenticated"},
	{"/etc/security/", "changes login security"},
	{"/etc/passwd", "adds or changes user accounts"},
	{"/etc/shadow", "changes passwords"},
	{"/etc/group", "changes group membership (and so privileges)"},
	{"/etc/gshadow", "changes group passwords"},
	{"/etc/rc.local", "runs at every boot"},
	{"/etc/init.d/", "installs a boot service"},
	{"/etc/systemd/", "installs or changes a system service or timer"},
	{"/lib/systemd/", "installs or changes a system service or timer"},
	{"/usr/lib/systemd/", "installs or changes a system service or timer"},
	{"/etc/cron", "installs a scheduled job"},
	{"/var/spool/cron", "installs a scheduled job"},
	{"/etc/anacrontab", "installs a scheduled job"},
	{"/etc/xdg/autostart/", "starts a program at every desktop login"},
	{"/etc/udev/rules.d/", "runs a program when a device appears"},
	{"/etc/modules-load.d/", "loads kernel modules at boot"},
	{"/etc/update-motd.d/", "runs at every login"},
	{"/etc/apt/apt.conf.d/", "runs commands at every package operation"},
	{"/etc/NetworkManager/dispatcher.d/", "runs a program on every network change"},
	{"/Library/LaunchDaemons/", "installs a launch daemon that runs as root"},
	{"/Library/LaunchAgents/", "installs a launch agent for every user"},
	{"/etc/ssh/sshd_config", "changes who may log in over SSH"},
	{"/etc/rc.d/", "runs at every boot"},
	{"/etc/init/", "installs a boot job"},
	{"/etc/xinetd.d/", "installs a network service"},
	{"/etc/inetd.conf", "installs a network service"},
	{"/etc/bash_completion.d/", "runs in every interactive shell"},
}

// homePersist are files under home that run code at login or in new
// shells beyond the shell rc files persist.shell-rc knows.
var homePersist = []string{".bash_aliases", ".bash_completion", ".ssh/rc", ".config/upstart/", ".termux/boot/", ".xprofile", ".xinitrc", ".xsessionrc", ".xsession", ".pam_environment", ".config/environment.d/", ".config/autostart/", ".config/systemd/", "Library/LaunchAgents/", ".local/share/systemd/", ".config/plasma-workspace/env/", ".kde/Autostart/"}

// accountTools create or change user accounts, groups or passwords.
var accountTools = []string{"vipw", "vigr", "useradd", "adduser", "usermod", "passwd", "chpasswd", "gpasswd", "groupadd", "newusers"}

// persistTool judges the programs named names: a hit when the call
// installs something that runs on its own or grants privileges.
type persistTool struct {
	names []string
	judge func(c *Call) Finding
}

// persistTools are the programs checkPrivilegedPersist judges by their
// arguments; what any program writes is judged by persistFileWritten.
var persistTools = []persistTool{
	{[]string{"visudo"}, func(c *Call) Finding {
		return hitIf(!hasArg(c.Args, "-c", "--check", "--help", "-h", "-V", "--version"), func() string { return "visudo edits sudoers, granting or changing sudo rights" })
	}},
	{[]string{"scrontab"}, func(c *Call) Finding {
		return hitIf(!hasArg(c.Args, "-l", "--help", "-h"), func() string { return "scrontab installs or removes scheduled jobs" })
	}},
	{[]string{"systemctl"}, systemctlLinksUnitFile},
	{[]string{"launchctl"}, func(c *Call) Finding {
		ops := operands(c.Args)
		return hitIf(len(ops) > 0 && slices.Contains([]string{"load", "bootstrap", "submit", "enable"}, ops[0]),
			func() string { return "launchctl " + ops[0] + " installs a job that starts on its own" })
	}},
	{[]string{"dscl"}, dsclChangesAccounts},
	{[]string{"dseditgroup"}, func(c *Call) Finding {
		return hitIf(hasArg(c.Args, "-a", "-d"), func() string { return "dseditgroup changes a group's members (and so privileges)" })
	}},
	{[]string{"sysadminctl"}, func(c *Call) Finding {
		return hitIf(hasArg(c.Args, "-addUser", "-resetPasswordFor", "-secureTokenOn", "-adminUser") && !hasArg(c.Args, "-deleteUser"),
			func() string { return "sysadminctl creates or changes user accounts or passwords" })
	}},
	{[]string{"osascript"}, osascriptLoginItem},
	{[]string{"defaults"}, defaultsLoginItem},
}

func checkPrivilegedPersist(c *Call) Finding {
	if slices.Contains(accountTools, c.Ex.Name) {
		return accountChanged(c)
	}
	for _, t := range persistTools {
		if !slices.Contains(t.names, c.Ex.Name) {
			continue
		}
		if f := t.judge(c); f.Hit {
			return f
		}
		break
	}
	return persistFileWritten(c)
}

// accountChanged: useradd, usermod, passwd … but passwd for one's own
// password, interactively, or a status, and help.
func accountChanged(c *Call) Finding {
	if c.Ex.Name == "passwd" && (len(c.Args) == 0 || hasArg(c.Args, "-S", "--status")) {
		return Finding{} // one's own password, interactively, or a status
	}
	if hasArg(c.Args, "--help", "-h", "-V", "--version") {
		return Finding{}
	}
	return hit(c.Ex.Name + " creates or changes user accounts, groups or passwords")
}

// systemctlLinksUnitFile: a unit file from a path (not one a package
// installed) linked or enabled starts on its own from now on.
func systemctlLinksUnitFile(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) <= 1 || ops[0] != "link" && ops[0] != "enable" && ops[0] != "reenable" {
		return Finding{}
	}
	for _, o := range ops[1:] {
		if strings.Contains(o, "/") {
			return hit("systemctl " + ops[0] + " " + o + " installs a unit that starts on its own")
		}
	}
	return Finding{}
}

// dsclChangesAccounts: macOS accounts: a user created or added to a group
// (admin).
func dsclChangesAccounts(c *Call) Finding {
	for _, a := range c.Args {
		if l := strings.ToLower(a); l == "-create" || l == "-append" || l == "-merge" || l == "-passwd" {
			return hit("dscl " + a + " creates or changes user accounts, groups or passwords")
		}
	}
	return Finding{}
}

// osascriptLoginItem: a login item added through System Events.
func osascriptLoginItem(c *Call) Finding {
	for _, a := range c.Args {
		if l := strings.ToLower(a); strings.Contains(l, "login item") && strings.Contains(l, "make") {
			return hit("osascript adds a login item that starts at every login")
		}
	}
	return Finding{}
}

// defaultsLoginItem: defaults write of login items and login/logout hooks.
func defaultsLoginItem(c *Call) Finding {
	for _, a := range c.Args {
		if strings.Contains(a, "AutoLaunchedApplicationDictionary") || a == "LoginHook" || a == "LogoutHook" || strings.Contains(a, "com.apple.loginitems") {
			if ops := operands(c.Args); len(ops) > 0 && ops[0] == "write" {
				return hit("defaults write " + a + " starts a program at every login")
			}
		}
	}
	return Finding{}
}

// persistFileWritten: a write to one of persistPaths, or to one of
// homePersist outside the project.
func persistFileWritten(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		for _, pp := range persistPaths {
			if strings.HasPrefix(p, pp.prefix) {
				return hit("writes " + p + ", which " + pp.what)
			}
		}
		if homePersistWritten(c, p) {
			return hit("writes " + p + ", which runs programs at login or in new shells")
		}
	}
	return Finding{}
}

// homePersistWritten reports whether p is one of homePersist, outside the
// project.
func homePersistWritten(c *Call, p string) bool {
	if c.Ctx.Home == "" || !c.Ctx.outsideProject(c.Res, p) {
		return false
	}
	rel, ok := strings.CutPrefix(p, c.Ctx.Home+"/")
	if !ok {
		return false
	}
	return slices.ContainsFunc(homePersist, func(h string) bool {
		return rel == strings.TrimSuffix(h, "/") || strings.HasPrefix(rel, h) && strings.HasSuffix(h, "/")
	})
}

// checkSystemWrite: output landing on a system file (/etc, /usr, /boot,
// /bin, ...) or a file of another user, by any program: overwritten,
// appended to, emptied or moved over.
func checkSystemWrite(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		if !shell.Known(p) || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/") {
			continue
		}
		l := c.Ctx.placeKnown(p)
		switch l.Place {
		case Root, CoreSystem, Protected:
			return hit(c.Ex.Name + " overwrites or changes the system file " + p)
		}
	}
	return Finding{}
}

// checkHomeEmptied: a dotfile or directory of home outside the workspace,
// or a credential file anywhere, emptied by a bare redirection, truncate, a
// copy of /dev/null, tee from /dev/null or a link to /dev/null.
func checkHomeEmptied(c *Call) Finding {
	for _, r := range c.Ex.Redirs {
		if r.Truncates() && r.Target != "" && homeEmptiable(c, c.resolve(r.Target)) && outputEmpty(c) {
			return hit("empties " + c.resolve(r.Target))
		}
	}
	switch c.Ex.Name {
	case "truncate":
		return firstEmptied(c, operands(c.Args), "truncate empties ")
	case "ln":
		ops := operands(c.Args)
		if len(ops) == 2 && ops[0] == "/dev/null" && hasShortFlag(c.Args, 'f') {
			if dst := c.resolve(ops[1]); homeEmptiable(c, dst) {
				return hit("ln replaces " + dst + " with a link to /dev/null")
			}
		}
	case "tee":
		if in := c.Ex.Stdin; in != nil && in.File == "/dev/null" && !hasArg(c.Args, "-a", "--append") {
			return firstEmptied(c, operands(c.Args), "tee empties ")
		}
	case "vi", "vim", "nvim", "ex", "ed":
		return editorEmpties(c)
	case "cp", "cat", "dd":
		ops := operands(c.Args)
		if len(ops) == 2 {
			src, _ := strings.CutPrefix(ops[0], "if=")
			if dst := c.resolve(strings.TrimPrefix(ops[1], "of=")); src == "/dev/null" && homeEmptiable(c, dst) {
				return hit(c.Ex.Name + " empties " + dst)
			}
		}
	}
	return Finding{}
}

// homeEmptiable reports whether emptying p loses something: a credential
// file anywhere (the workspace's .env too), a dotfile of home, or any
// file of another user's home.
func homeEmptiable(c *Call, p string) bool {
	if _, ok := c.Ctx.credential(c.Res, p); ok && shell.Known(p) {
		return true // a credential file anywhere, the workspace's .env too
	}
	l := c.Ctx.placeKnown(p)
	if !shell.Known(p) || l.Place != InHome && l.Place != OtherHome {
		return false
	}
	rel := strings.TrimPrefix(p, c.Ctx.Home+"/")
	return strings.HasPrefix(rel, ".") || l.Place == OtherHome
}

// firstEmptied is a hit, what followed by the path, for the first of ops
// homeEmptiable.
func firstEmptied(c *Call, ops []string, what string) Finding {
	for _, o := range ops {
		if p := c.resolve(o); homeEmptiable(c, p) {
			return hit(what + p)
		}
	}
	return Finding{}
}

// editorEmpties: ex commands that delete every line and write: vim -c
// '%d|wq' f, ex -sc '%d|x' f, ed's ",d" then "w".
func editorEmpties(c *Call) Finding {
	if !editorErasesAll(c) {
		return Finding{}
	}
	for _, o := range operands(c.Args) {
		if p := c.resolve(o); !strings.Contains(o, "%d") && homeEmptiable(c, p) {
			return hit(c.Ex.Name + " deletes every line of " + p)
		}
	}
	return Finding{}
}

// editorErasesAll reports whether an editor's -c/+ commands or input
// delete every line (%d, ,d).
func editorErasesAll(c *Call) bool {
	for i, a := range c.Args {
		if (a == "-c" || a == "-sc" || a == "+" || strings.HasPrefix(a, "+")) && (strings.Contains(a, "%d") || i+1 < len(c.Args) && strings.Contains(c.Args[i+1], "%d")) {
			return true
		}
	}
	in := c.Ex.Stdin
	return in != nil && (strings.Contains(in.Text, ",d") || strings.Contains(in.Text, "%d"))
}

// outputEmpty: a command whose stdout carries nothing (:, true, echo -n,
// printf ”), used only to empty a redirection's target.
func outputEmpty(c *Call) bool {
	switch c.Ex.Name {
	case "":
		return len(c.Ex.Args) == 0 // a bare redirection
	case ":", "true", "false":
		return true
	case "echo":
		return len(c.Args) == 0 || len(c.Args) == 1 && c.Args[0] == "-n"
	case "printf":
		return len(c.Args) == 0 || len(c.Args) == 1 && c.Args[0] == ""
	case "cat":
		return c.Ex.Stdin != nil && c.Ex.Stdin.File == "/dev/null" || hasArg(c.Args, "/dev/null")
	}
	return false
}

// checkMoveAway: mv of home, a system directory, the workspace or its .git
// anywhere (onto /dev/null, into /tmp, over another directory) destroys it
// as surely as rm -rf.
func checkMoveAway(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) < 2 {
		return Finding{}
	}
	dst := c.resolve(ops[len(ops)-1])
	for _, s := range ops[:len(ops)-1] {
		l := c.Loc(s)
		switch l.Place {
		case Root, CoreSystem, System, Protected, Home, Ancestor, Workspace, WorkspaceGit, OtherHome:
			if l.Place == System && !strings.HasPrefix(dst, "/dev/") && c.Ctx.placeKnown(dst).Place == System {
				continue // a rename between system locations (/opt/x to /opt/y)
			}
			return hit("mv moves away " + l.Place.String() + " (" + l.Path + "), which destroys it where it was")
		case InHome:
			if d := c.Ctx.placeKnown(dst).Place; dst == "/dev/null" || d == TempRoot || d == InTemp {
				return hit("mv moves " + l.Path + " out of home to " + dst + ", where it is lost")
			}
		}
		if dst == "/dev/null" && l.Place != InWorkspace && l.Place != InTemp {
			return hit("mv " + c.Show(s) + " onto /dev/null destroys it")
		}
	}
	return Finding{}
}

// checkUserDelete: deleting an account together with its home.
func checkUserDelete(c *Call) Finding {
	switch c.Ex.Name {
	case "userdel":
		if hasArg(c.Args, "-r", "--remove", "-f", "--force") || hasShortFlag(c.Args, 'r') {
			return hit("userdel -r deletes the user together with their home directory")
		}
	case "deluser":
		if hasArg(c.Args, "--remove-home", "--remove-all-files") {
			return hit("deluser deletes the user's home directory")
		}
	case "dscl": // macOS directory service: dscl . -delete /Users/NAME
		for i, a := range c.Args {
			if strings.EqualFold(a, "-delete") && i+1 < len(c.Args) && strings.HasPrefix(strings.ToLower(c.Args[i+1]), "/users/") {
				return hit("dscl -delete deletes the account " + c.Args[i+1])
			}
		}
	case "sysadminctl":
		if hasArg(c.Args, "-deleteUser") {
			return hit("sysadminctl -deleteUser deletes the account and its home")
		}
	}
	return Finding{}
}

// checkVCSDiscard: other version-control systems' discards of uncommitted
// work (git's are the git.* rules).
func checkVCSDiscard(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) == 0 {
		return Finding{}
	}
	switch c.Ex.Name {
	case "hg":
		switch ops[0] {
		case "update", "up", "checkout", "co":
			if hasArg(c.Args, "-C", "--clean") {
				return hit("hg update --clean discards uncommitted changes")
			}
		case "revert":
			if hasArg(c.Args, "--all", "-a") && !hasArg(c.Args, "-n", "--dry-run") {
				return hit("hg revert --all discards uncommitted changes")
			}
		case "purge", "clean", "strip", "prune":
			return hit("hg " + ops[0] + " deletes files or commits that cannot be restored")
		}
	case "svn":
		if ops[0] == "revert" && hasArg(c.Args, "-R", "--recursive", "--depth=infinity") {
			return hit("svn revert -R discards uncommitted changes")
		}
	}
	return Finding{}
}

var permWorldWritable = &lazyregexp.Regexp{Expr: `^(0?[0-7]?[0-7][0-7][2367]|([ugoa]*[ao][ugoa]*|)[+=][rwxXst]*w[rwxXst]*)$`}
var permWorldReadable = &lazyregexp.Regexp{Expr: `^(0?[0-7]?[0-7][0-7][4567]|[0-7]?[0-7][4567][0-7]|([ugoa]*[aog][ugoa]*|)[+=][rwxXst]*r[rwxXst]*)$`}
var permNone = &lazyregexp.Regexp{Expr: `^(0?0?00|[ugoa]*=)$`}
var permOthersReadable = &lazyregexp.Regexp{Expr: `^(0?[0-7]?[0-7][0-7][4567]|([ugoa]*[ao][ugoa]*|)[+=][rwxXst]*r[rwxXst]*)$`}
var dangerousCaps = &lazyregexp.Regexp{Expr: `(?i)\bcap_(setuid|setgid|sys_admin|sys_module|sys_ptrace|sys_rawio|dac_override|dac_read_search|chown|fowner|setfcap|net_admin|bpf|all)\b|^(all|=ep)`}
var permSetID = &lazyregexp.Regexp{Expr: `^(0?[2-7][0-7]{3}|[ugoa]*\+[rwxX]*s[rwxXt]*)$`}

// permSetUID is a mode that sets the set-user-ID bit (not only set-group-ID,
// which directories take for shared group ownership).
var permSetUID = &lazyregexp.Regexp{Expr: `^(0?[4-7][0-7]{3}|(u|a|ug|uo|ugo|ua)?\+[rwxX]*s[rwxXt]*)$`}

// isSetIDTarget reports whether a program (a path), setuid, hands a root
// shell to anyone: a shell or an interpreter — the analysis's own lists
// (shell.IsShell, shell.Interpreter, shell.RunsStdin) — busybox, or one of
// setIDEscapes.
func isSetIDTarget(program string) bool {
	name := shell.CommandName(program)
	return shell.IsShell(name) || shell.Interpreter(name) != "" || shell.RunsStdin(name) || name == "busybox" || slices.Contains(setIDEscapes, name)
}

// setIDEscapes are programs that are neither shells nor interpreters but
// run a command for their caller (find -exec, an editor's or pager's !,
// env, nmap --interactive, docker run -v /:/host) or write any file as
// their owner (cp, mv, tar over /etc/shadow).
var setIDEscapes = []string{"find", "vim", "vi", "nano", "less", "more", "env", "cp", "mv", "tar", "nmap", "docker"}

// checkPermWiden: credentials made readable or writable by others, shells
// and interpreters made setuid, and any permission, owner, attribute or
// ACL change of a system path (recursive or not).
func checkPermWiden(c *Call) Finding {
	var mode string
	var targets []string
	switch c.Ex.Name {
	case "chmod":
		mode, targets = chmodOperands(c.Args)
	case "setcap":
		return setcapWidens(c)
	case "install":
		return installSetID(c)
	case "chflags": // the BSDs' and macOS's chattr: chflags [-R] flags file...
		if ops := operands(c.Args); len(ops) > 1 {
			mode, targets = ops[0], ops[1:]
		}
	case "chown", "chgrp", "chattr", "setfacl":
		mode, targets = ownerOperands(c)
	default:
		return Finding{}
	}
	for _, t := range targets {
		if f := permTargetWidened(c, mode, t); f.Hit {
			return f
		}
	}
	return Finding{}
}

// chmodOperands are chmod's mode (also chmod -w f, chmod -x f) and files.
func chmodOperands(args []string) (mode string, targets []string) {
	ops := operands(args)
	for _, a := range args {
		if modeWordRe.MatchString(a) && mode == "" && !slices.Contains([]string{"-R", "-f", "-v", "-c"}, a) {
			mode = a[1:] // chmod -w f, chmod -x f
		}
	}
	if mode == "" && len(ops) > 0 {
		mode, ops = ops[0], ops[1:]
	}
	return mode, ops
}

// ownerOperands are the paths chown, chgrp, chattr and setfacl change, and
// chattr's -i/-a flags as the mode; none when chown or chgrp hand the paths
// to root, which takes rights away from users.
func ownerOperands(c *Call) (mode string, targets []string) {
	name := c.Ex.Name
	ops := operands(c.Args)
	if (name == "chown" || name == "chgrp") && len(ops) > 0 {
		if toRoot(name, ops[0]) {
			return "", nil
		}
		ops = ops[1:]
	}
	if name != "chattr" {
		return "", ops
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") && len(a) > 1 && strings.ContainsAny(a[1:], "ia") && !strings.HasPrefix(a, "--") {
			mode = a
		}
	}
	if len(ops) > 0 && (strings.HasPrefix(ops[0], "+") || strings.HasPrefix(ops[0], "=")) {
		return mode, ops[1:]
	}
	return mode, ops
}

// setcapWidens: capabilities are setuid in pieces: cap_setuid on python is
// a root shell for anyone who can run it.
func setcapWidens(c *Call) Finding {
	ops := operands(c.Args)
	for i, o := range ops {
		if i+1 < len(ops) && dangerousCaps.MatchString(o) && strings.ContainsAny(o, "+=") && strings.Contains(o[strings.IndexAny(o, "+="):], "e") {
			return hit("setcap " + o + " lets " + ops[i+1] + " act as root for whoever runs it")
		}
	}
	return Finding{}
}

// installSetID: install -m 4755 /bin/bash /tmp/x is chmod u+s on a copy.
func installSetID(c *Call) Finding {
	p := shell.ParseArgs(c.Args, installSpec)
	mode, _ := p.Value("m", "mode")
	if !permSetID.MatchString(mode) {
		return Finding{}
	}
	for _, t := range p.Operands {
		if isSetIDTarget(c.resolve(t)) {
			return hit("install -m " + mode + " makes a copy of " + t + " run as its owner for anyone: a root shell for every user")
		}
	}
	return Finding{}
}

// permTargetWidened judges one path whose mode, owner or attributes a call
// changes to mode.
func permTargetWidened(c *Call, mode, t string) Finding {
	l, p := c.Loc(t), c.resolve(t)
	if f := permSystemOrSetID(c, mode, t, l, p); f.Hit {
		return f
	}
	return permCredentialOpened(c, mode, l, p)
}

// permSystemOrSetID: a system path changed, a program made setuid, a home
// or critical path made writable by all.
func permSystemOrSetID(c *Call, mode, t string, l Loc, p string) Finding {
	name := c.Ex.Name
	if (l.Place == Root || l.Place == CoreSystem || l.Place == Protected) && (name != "chmod" || permWorldWritable.MatchString(mode) || permSetID.MatchString(mode) || permNone.MatchString(mode)) {
		// chmod +x /usr/local/bin/tool is an install step; making a
		// system path writable by all, setuid, unreadable, or another
		// user's, is not.
		return hit(name + " changes the permissions, owner or attributes of the system path " + l.Path)
	}
	if name != "chmod" {
		return Finding{}
	}
	switch {
	case permSetID.MatchString(mode) && !shell.Known(t):
		return hit("chmod " + mode + " makes " + c.Show(t) + ", a program decided at run time, run as its owner for anyone")
	case permSetID.MatchString(mode) && isSetIDTarget(p):
		return hit("chmod " + mode + " makes " + p + " run as its owner for anyone: a root shell for every user")
	case permSetUID.MatchString(mode) && l.Place != InWorkspace:
		// Any program made setuid outside the project runs as its
		// owner for whoever starts it; copies of shells hide under any
		// name (cp /bin/bash /tmp/x). The workspace's own tools are
		// the user's to build.
		return hit("chmod " + mode + " makes " + p + " run as its owner for anyone who starts it")
	case permWorldWritable.MatchString(mode) && (l.homeLike() || l.critical()):
		return hit("chmod " + mode + " makes " + l.Path + " writable by every user")
	}
	return Finding{}
}

// permCredentialOpened: chmod making a credential (or ~/.ssh, ~/.gnupg,
// ~/.aws) readable or writable by others. A key of the workspace may be
// shared with its group (640 for a service's certificate); anywhere else
// group access widens too.
func permCredentialOpened(c *Call, mode string, l Loc, p string) Finding {
	if c.Ex.Name != "chmod" {
		return Finding{}
	}
	readable := permWorldReadable
	if l.Place == InWorkspace {
		readable = permOthersReadable
	}
	if !permWorldWritable.MatchString(mode) && !readable.MatchString(mode) {
		return Finding{}
	}
	what, ok := c.Ctx.credential(c.Res, p)
	if !ok && !strings.HasSuffix(p, "/.ssh") && !strings.HasSuffix(p, "/.gnupg") && !strings.HasSuffix(p, "/.aws") {
		return Finding{}
	}
	if !ok {
		what = p
	}
	return hit("chmod " + mode + " lets other users read " + what)
}

var installSpec = &shell.OptSpec{Short: "bcCdDg:m:o:pPsS:t:TvZ", Long: []string{"backup=?", "compare", "directory", "group=", "mode=", "owner=", "preserve-timestamps", "strip", "strip-program=", "suffix=", "target-directory=", "no-target-directory", "verbose", "preserve-context", "context=?", "debug", "help", "version"}, Abbrev: true}

// toRoot reports whether chown/chgrp's owner word hands the paths to root
// (root, 0, root:root, :root, 0:0).
func toRoot(name, owner string) bool {
	user, group, hasGroup := strings.Cut(owner, ":")
	if name == "chgrp" {
		user, group, hasGroup = "", owner, true
	}
	isRoot := func(s string) bool { return s == "root" || s == "0" || s == "wheel" }
	return (user == "" || isRoot(user)) && (!hasGroup || group == "" || isRoot(group)) && (user != "" || group != "")
}

// checkFindPerm: find over a system directory or home running chmod,
// chown, chgrp, chattr or setfacl on what it finds: recursive in effect.
func checkFindPerm(c *Call) Finding {
	starts, expr := shell.FindStart(c.Args)
	changer := ""
	shell.FindExpr(expr, func(primary, _ string, cmd []string) {
		if len(cmd) > 0 && changer == "" {
			if n := shell.CommandName(cmd[0]); slices.Contains([]string{"chmod", "chown", "chgrp", "chattr", "setfacl"}, n) {
				changer = n
			}
		}
	})
	if changer == "" {
		return Finding{}
	}
	for _, s := range starts {
		l := c.Loc(s)
		if l.critical() || l.Place == Home || l.Place == Ancestor || l.Place == OtherHome {
			return hit("find " + l.Path + " -exec " + changer + " changes permissions or owners across " + l.Place.String())
		}
	}
	return Finding{}
}

// gitExtrasDiscards are git-extras commands (git-<name> on PATH) that
// discard work: clear is reset --hard plus clean -fdx, delete-tag and
// delete-branch remove refs locally and on the remote.
var gitExtrasDiscards = []string{"clear", "clear-soft", "delete-tag", "delete-branch", "delete-merged-branches", "delete-squashed-branches", "delete-submodule", "obliterate", "reset-file", "scp"}

// checkGitDiscardOther: discards of uncommitted work or refs that git's own
// rules do not name: checkout-index --force over the work tree and the
// git-extras discards.
func checkGitDiscardOther(c *Call) Finding {
	g := parseGit(c)
	switch {
	case g.sub == "checkout-index" && (hasArg(g.args, "-f", "--force") || hasShortFlag(g.args, 'f')) && !hasPrefixArg(g.args, "--prefix"):
		return hit("git checkout-index --force overwrites work-tree files from the index, discarding their unstaged changes")
	case slices.Contains(gitExtrasDiscards, g.sub) && g.sub != "scp":
		return hit("git " + g.sub + " (git-extras) discards work or deletes refs, locally and on the remote")
	case g.sub == "undo" && hasArg(g.args, "--hard", "-h"):
		return hit("git undo --hard (git-extras) discards the last commits and their changes")
	}
	return Finding{}
}
