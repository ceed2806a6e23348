package policy

// disk.volume-destroy and disk.factory-reset: storage named by a volume,
// pool or machine rather than a device path, and devices reset.

import (
	"slices"
	"strings"
)

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
	for _, t := range volumeTools {
		if slices.Contains(t.names, c.Ex.Name) {
			return t.judge(c, operands(c.Args))
		}
	}
	return Finding{}
}

// volumeTool judges the programs named names, ops being the call's
// operands: a hit when the call destroys a volume, a pool or a machine's
// storage.
type volumeTool struct {
	names []string
	judge func(c *Call, ops []string) Finding
}

// volumeTools are the volume and machine managers whose destroying verbs
// depend on more than one word (volumeVerbs).
var volumeTools = []volumeTool{
	{[]string{"diskutil"}, diskutilErases},
	{[]string{"asr"}, asrErases},
	{[]string{"gpart"}, gpartRewrites},
	{[]string{"virsh"}, virshUndefinesStorage},
	{[]string{"vboxmanage"}, vboxDeletes},
	{[]string{"btrfs"}, btrfsDeletes},
	{[]string{"qmrestore", "pct-restore"}, restoreForced},
}

func asrErases(c *Call, _ []string) Finding {
	if hasArg(c.Args, "--erase", "-erase") {
		return hit("asr --erase erases the target volume")
	}
	return Finding{}
}

// gpartRewrites: FreeBSD's gpart destroying, deleting or rewriting a
// partition table.
func gpartRewrites(_ *Call, ops []string) Finding {
	if len(ops) > 0 && slices.Contains([]string{"destroy", "delete", "create", "bootcode", "resize", "recover"}, ops[0]) {
		return hit("gpart " + ops[0] + " rewrites or destroys a partition table")
	}
	return Finding{}
}

func virshUndefinesStorage(c *Call, ops []string) Finding {
	if slices.Contains(ops, "undefine") && (hasArg(c.Args, "--remove-all-storage", "--wipe-storage") || hasPrefixArg(c.Args, "--storage")) {
		return hit("virsh undefine removes the machine together with its storage")
	}
	return Finding{}
}

// btrfsDeletes: btrfs subvolume delete, btrfs device remove.
func btrfsDeletes(_ *Call, ops []string) Finding {
	if len(ops) > 1 && (ops[0] == "subvolume" || ops[0] == "sub" || ops[0] == "device" || ops[0] == "dev") && (ops[1] == "delete" || ops[1] == "del" || ops[1] == "remove") {
		return hit("btrfs " + ops[0] + " " + ops[1] + " deletes a subvolume or removes a device with its data")
	}
	return Finding{}
}

// restoreForced: Proxmox's qmrestore and pct restore --force over an
// existing machine.
func restoreForced(c *Call, _ []string) Finding {
	if hasArg(c.Args, "--force", "-force") {
		return hit(c.Ex.Name + " --force restores over an existing machine, destroying it")
	}
	return Finding{}
}

// diskutilVerbs are macOS diskutil's verbs (case-insensitive) that erase,
// repartition or delete.
var diskutilVerbs = []string{"erasedisk", "erasevolume", "partitiondisk", "zerodisk", "randomdisk", "secureerase", "reformat", "deletecontainer", "deletevolume",
	"deletepartition", "splitpartition", "mergepartitions", "erasecd", "eraseoptical", "deleteplaceholder", "deletesnapshot", "delete",
	"resizecontainer", "resizevolume", "convert", "revert", "create", "createraid", "createset", "addmember", "removemember"}

// diskutilErases: one of diskutilVerbs among the first three operands,
// given what to act on (a verb with nothing after it prints its usage).
func diskutilErases(_ *Call, ops []string) Finding {
	for i, o := range ops[:min(len(ops), 3)] {
		if slices.Contains(diskutilVerbs, strings.ToLower(o)) && i < len(ops)-1 {
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
