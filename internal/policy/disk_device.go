package policy

// disk.device-target: any program given a block device, and the
// destructive modes of the tools that otherwise only read one.

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
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
	devs := c.devices()
	if len(devs) == 0 && name != "zpool" && name != "zfs" && name != "nvme" {
		return Finding{}
	}
	d := deviceCall{c: c, devs: devs, ops: operands(c.Args)}
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
	{[]string{"cryptsetup"}, deviceCryptsetup},
	{[]string{"mdadm"}, deviceMdadm},
	{[]string{"nvme"}, deviceNvme},
	{[]string{"hdparm"}, deviceHdparm},
	{[]string{"badblocks"}, deviceBadblocks},
	{[]string{"zpool"}, deviceZpool},
	{[]string{"zfs"}, deviceZfs},
	{[]string{"btrfs"}, deviceBtrfs},
	{[]string{"qemu-img"}, qemuImgOverDevice},
	{[]string{"ddrescue"}, deviceDdrescue},
	{[]string{"debugfs"}, deviceDebugfs},
	{[]string{"zerofree"}, deviceZerofree},
}

// deviceDebugfs judges debugfs: it opens the device read-only unless -w
// (debugfs(8)), so its requests can then only read; what they read (cat
// /etc/shadow) is judged by the rules over the request as a command.
func deviceDebugfs(d deviceCall) Finding {
	return d.destroysIf(hasShortFlag(d.c.Args, 'w'), "opens read-write (-w), where its requests free or overwrite blocks of")
}

// deviceZerofree judges zerofree: -n is a dry run (zerofree(8)).
func deviceZerofree(d deviceCall) Finding {
	return d.destroysIf(!hasShortFlag(d.c.Args, 'n'), "overwrites the free blocks of")
}

// deviceCryptsetup judges cryptsetup.
func deviceCryptsetup(d deviceCall) Finding {
	return d.destroysIf(len(d.ops) > 0 && slices.Contains([]string{"luksformat", "erase", "lukserase", "reencrypt", "luksremovekey", "luksKillSlot", "lukskillslot", "repair"}, strings.ToLower(d.ops[0])),
		"rewrites the encryption header of")
}

// deviceMdadm judges mdadm.
func deviceMdadm(d deviceCall) Finding {
	return d.destroysIf(hasArg(d.c.Args, "--create", "-C", "--zero-superblock", "--build", "-B", "--grow", "-G", "--add", "-a"), "writes RAID metadata over")
}

// deviceNvme judges nvme.
func deviceNvme(d deviceCall) Finding {
	return d.destroysIf(d.verbIn("format", "sanitize", "write-zeroes", "write", "ns-delete", "delete-ns", "dsm"), "erases")
}

// deviceHdparm judges hdparm.
func deviceHdparm(d deviceCall) Finding {
	return d.destroysIf(slices.ContainsFunc(d.c.Args, func(a string) bool {
		return strings.HasPrefix(a, "--security-erase") || a == "--trim-sector-ranges" || a == "--write-sector" || a == "--make-bad-sector" || a == "--dco-restore" || a == "--security-set-pass"
	}), "erases")
}

// deviceBadblocks judges badblocks.
func deviceBadblocks(d deviceCall) Finding {
	return d.destroysIf(hasArg(d.c.Args, "-w", "-n") || hasShortFlag(d.c.Args, 'w'), "overwrites")
}

// zpoolWriters are zpool's verbs that write pool labels over disks or
// destroy or shrink a pool; zpoolDryRun are those of them whose -n only
// prints what would be done (zpool(8)).
var (
	zpoolWriters = []string{"create", "add", "attach", "replace", "destroy", "labelclear", "split", "initialize", "remove"}
	zpoolDryRun  = []string{"create", "add", "split", "remove"}
)

// deviceZpool judges zpool: a writing verb given a pool (alone it prints
// its usage), unless a dry run; zpool remove -s cancels a removal.
func deviceZpool(d deviceCall) Finding {
	if !d.verbIn(zpoolWriters...) || len(d.ops) < 2 {
		return Finding{}
	}
	verb := d.ops[0]
	if slices.Contains(zpoolDryRun, verb) && hasShortFlag(d.c.Args, 'n') || verb == "remove" && hasShortFlag(d.c.Args, 's') {
		return Finding{}
	}
	return hit("zpool " + verb + " writes pool labels over disks, or destroys or shrinks a pool and its data")
}

// deviceZfs judges zfs: destroy given a dataset (alone it prints its
// usage), unless -n (a dry run, zfs-destroy(8)); rollback -r/-R, which
// destroys the later snapshots.
func deviceZfs(d deviceCall) Finding {
	if len(d.ops) < 2 {
		return Finding{}
	}
	if d.ops[0] == "destroy" && !hasShortFlag(d.c.Args, 'n') || d.ops[0] == "rollback" && hasArg(d.c.Args, "-r", "-R") {
		return hit("zfs " + d.ops[0] + " destroys datasets or snapshots and their data")
	}
	return Finding{}
}

// deviceBtrfs judges btrfs.
func deviceBtrfs(d deviceCall) Finding {
	return d.destroysIf(len(d.ops) > 1 && d.ops[0] == "device" && d.ops[1] == "add" || hasArg(d.ops, "replace"), "adds to a file system (formatting)")
}

// deviceDdrescue judges ddrescue.
func deviceDdrescue(d deviceCall) Finding {
	// ddrescue in out [log]: the device is destroyed in output position.
	if len(d.ops) >= 2 && blockDevice(d.c.resolve(d.ops[1])) {
		return hit("ddrescue writes over the device " + d.c.resolve(d.ops[1]) + ", destroying what it holds")
	}
	return Finding{}
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
