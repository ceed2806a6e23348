package policy

import (
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// diskRules protect block devices and volumes.
var diskRules = []*Rule{
	{
		ID: "disk.dd-device", Category: "disk",
		Protects: "disks and partitions (/dev/sd*, /dev/nvme*, /dev/disk*, ...)",
		What:     "writes over a disk device",
		Safer:    "write to an image file in the workspace (dd of=./disk.img)",
		Unknown:  shellUnknown,
		Commands: []string{"dd"}, exec: checkDd,
		Block: []string{`dd if=/dev/zero of=/dev/sda bs=1M`, `sudo dd if=image.iso of=/dev/disk2`, `dd of="/dev/nvme0n1" if=/dev/zero`},
		Allow: []string{`dd if=/dev/sda of=./backup.img`, `dd if=/dev/urandom of=random.bin count=1`, `dd if=/dev/zero of=/dev/null count=1`},
	},
	{
		ID: "disk.device-write", Category: "disk",
		Protects: "disks and partitions, from redirections and copies onto the device",
		What:     "writes over a disk device",
		Safer:    "write to a file instead of a device",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkDeviceRedirect,
		Block: []string{`cat image.iso > /dev/sda`, `echo x > /dev/nvme0n1p1`, `cp disk.img /dev/sdb`},
		Allow: []string{`echo x > /dev/null`, `make 2>/dev/null`, `cat /dev/urandom | head -c 16 > key.bin`},
	},
	{
		ID: "disk.mkfs", Category: "disk",
		Protects: "disks and partitions, from being reformatted",
		What:     "formats a disk device, erasing it",
		Safer:    "format an image file in the workspace (mkfs.ext4 ./disk.img)",
		Unknown:  noUnknownStory,
		Commands: []string{"mkfs", "mkfs.*", "mke2fs", "mkswap", "newfs", "newfs_apfs", "newfs_hfs"},
		exec:     checkMkfs,
		Block:    []string{`mkfs.ext4 /dev/sda1`, `mkfs -t ext4 /dev/sdb`, `sudo mkswap /dev/sdc2`, `mkfs.apfs /dev/disk2`},
		Allow:    []string{`mkfs.ext4 disk.img`, `mkfs.ext4 ./loop.img`},
	},
	{
		ID: "disk.partition", Category: "disk",
		Protects: "partition tables and file system signatures",
		What:     "rewrites a disk's partitions or signatures",
		Safer:    "list only (fdisk -l, parted -l, wipefs without -a)",
		Unknown:  noUnknownStory,
		Commands: []string{"fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "wipefs", "blkdiscard"},
		exec:     checkPartition, // diskutil is judged by its verbs in disk.volume-destroy
		Block:    []string{`wipefs -a /dev/sdb`, `sudo fdisk /dev/sda`, `parted /dev/sda mklabel gpt`, `blkdiscard /dev/nvme0n1`},
		Allow:    []string{`fdisk -l`, `wipefs /dev/sdb`, `parted -l`},
	},
	{
		ID: "disk.shred", Category: "disk",
		Protects: "files, from being overwritten beyond recovery",
		What:     "shred destroys files beyond recovery",
		Safer:    "delete the file normally (rm file) if it must go",
		Unknown:  noUnknownStory,
		Commands: []string{"shred"}, exec: checkShred,
		Block: []string{`shred -u ~/.ssh/id_rsa`, `shred /dev/sda`, `sudo shred -u /etc/passwd`, `shred -u .git/index`},
		Allow: []string{`shred --help`, `echo shred -u x`, `shred -u secret.txt`, `shred -n 1 -u ./tmp/key.bin`, `sfdisk -d /dev/sda`, `wipefs --no-act -a /dev/sdb`, `find ./tmp -type f -exec shred -u {} +`},
	},
	{
		ID: "disk.device-target", Category: "disk",
		Protects: "disks and partitions, from any program given one as its target (imagers, flashers, boot loaders, volume, RAID, LUKS and ZFS tools, secure-erase, burners)",
		What:     "writes over a disk device",
		Safer:    "write to an image file in the workspace; list devices with lsblk",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkDeviceTarget,
		Block: []string{`bmaptool copy img.img /dev/sdb`, `sudo grub-install /dev/sda`, `ventoy -i /dev/sdb`, `cryptsetup luksFormat /dev/sdb1`, `mdadm --zero-superblock /dev/sdb1`, `nvme format /dev/nvme0n1`, `hdparm --security-erase p /dev/sda`, `badblocks -w /dev/sdb`, `zpool create tank mirror sda sdb`, `ddrescue -f /dev/sdb /dev/sdc log`, `pvcreate /dev/sdb`, `sudo zpool remove tank mirror-1`, `zpool destroy tank`, `zfs destroy -r tank/data`, `zfs destroy -v tank/data@daily`, `sudo debugfs -w -R 'rm /etc/shadow' /dev/sda1`, `debugfs -w /dev/sdb1`, `sudo zerofree -v /dev/sdb1`},
		Allow: []string{`lsblk /dev/sda`, `blkid /dev/sdb1`, `dumpe2fs -h /dev/sdb1`, `cryptsetup luksDump /dev/sdb1`, `mdadm --detail /dev/md0`, `nvme list`, `hdparm -I /dev/sda`, `badblocks -v /dev/sdb`, `zpool status`, `mount /dev/sdb1 /mnt`, `smartctl -a /dev/nvme0n1`, `hdiutil detach /dev/disk4`, `zfs destroy -nv tank/data@daily`, `zpool destroy 2>&1 | head -3`, `zpool remove -n tank sdb`, `zpool remove -s tank`, `zpool create -n tank mirror sda sdb`, `sudo debugfs -R 'stat /etc/passwd' /dev/sda1`, `debugfs -R 'ls -l /home' /dev/sda1`, `sudo zerofree -n /dev/sdb1`},
	},
	{
		ID: "disk.volume-destroy", Category: "disk",
		Protects: "storage named by volume or pool rather than device: LVM, Stratis, Ceph, virtual machine disks",
		What:     "deletes volumes, pools or virtual disks and their data",
		Safer:    "ask the user",
		Unknown:  noUnknownStory,
		Commands: []string{"diskutil", "asr", "gpart", "lvremove", "vgremove", "pvremove", "lvreduce", "stratis", "ceph", "rbd", "virsh", "qm", "pct", "vboxmanage", "qmrestore", "btrfs"}, exec: checkVolumeVerb,
		Block: []string{`sudo lvremove vg0/lv0`, `vgremove -f vg0`, `stratis pool destroy tank`, `ceph osd pool delete tank`, `virsh undefine vm --remove-all-storage`, `VBoxManage unregistervm vm --delete`, `qm destroy 100`, `btrfs subvolume delete /mnt/data`, `diskutil eraseDisk JHFS+ Untitled /dev/disk2`, `diskutil apfs deleteContainer disk3`, `sudo asr restore --source img.dmg --target /Volumes/Data --erase`, `sudo gpart destroy -F ada0`, `sudo diskutil partitionDisk /dev/disk4 GPT APFS X 0b`, `diskutil eraseVolume APFS Scratch disk3s1`},
		Allow: []string{`lvs`, `stratis pool list`, `ceph status`, `virsh list --all`, `virsh undefine vm`, `VBoxManage list vms`, `btrfs subvolume list /mnt`, `diskutil list`, `diskutil info disk2`, `gpart show ada0`, `diskutil unmountDisk /dev/disk4`, `diskutil eject /dev/disk4`, `diskutil info /dev/disk2`, `diskutil eraseVolume`, `diskutil apfs deleteContainer`},
	},
	{
		ID: "disk.factory-reset", Category: "disk",
		Protects: "devices and security keys, from factory resets that erase them and the credentials they hold",
		What:     "factory-resets a device or security key",
		Safer:    "ask the user",
		Unknown:  noUnknownStory,
		Commands: []string{"ykman", "gpg-card", "fastboot", "steamos-factory-reset", "steamos-factory-reset-config", "k3s-uninstall.sh", "k3s-agent-uninstall.sh", "rke2-uninstall.sh", "talosctl", "rabbitmqctl", "sg_format", "flashrom", "balena", "etcher", "balena-etcher"}, exec: checkFactoryReset,
		Block: []string{`ykman fido reset`, `gpg-card factory-reset`, `fastboot oem unlock`, `fastboot erase userdata`, `talosctl reset -n 10.0.0.2`, `rabbitmqctl reset`, `k3s-uninstall.sh`},
		Allow: []string{`ykman info`, `fastboot devices`, `talosctl get members`, `rabbitmqctl status`},
	},
}

// Devices: writing to these destroys a disk or partition. The harmless
// character devices are allowed.
var safeDevRe = &lazyregexp.Regexp{Expr: `^/dev/(null|zero|full|random|urandom|stdin|stdout|stderr|tty\w*|pts/\d+|fd/\d+|shm(/.*)?|console|ptmx|(tcp|udp)/[^/]+/[^/]+)$`}

func isDevice(p string) bool {
	return strings.HasPrefix(p, "/dev/") && !safeDevRe.MatchString(p)
}

func checkDd(c *Call) Finding {
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "of="); ok {
			p := shell.ResolvePath(c.Ex.Dir, v)
			if isDevice(p) {
				return hit("dd writes over the device " + p + ", destroying the disk or partition")
			}
			if !shell.Known(v) {
				return maybe("dd writes to " + c.Show(v) + ", which cannot be known statically")
			}
		}
	}
	return Finding{}
}

// checkDeviceRedirect: any command writing a device with > destroys it.
func checkDeviceRedirect(c *Call) Finding {
	for _, r := range c.Ex.Redirs {
		if r.Writes() {
			if p := shell.ResolvePath(c.Ex.Dir, r.Target); isDevice(p) {
				return hit("writes over the device " + p + ", destroying the disk or partition")
			}
		}
	}
	switch c.Ex.Name {
	case "cp", "tee", "cat", "pv":
		for _, a := range c.Args {
			if p := shell.ResolvePath(c.Ex.Dir, a); isDevice(p) && c.Ex.Name != "cat" {
				return hit(c.Ex.Name + " writes over the device " + p + ", destroying the disk or partition")
			}
		}
	}
	return Finding{}
}

func checkMkfs(c *Call) Finding {
	ext := c.Ex.Name == "mke2fs" || strings.HasPrefix(c.Ex.Name, "mkfs.ext")
	for _, a := range c.Args {
		if ext && a == "-n" || c.Ex.Name == "newfs" && a == "-N" {
			return Finding{} // mke2fs -n and newfs -N show what they would do and write nothing
		}
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		p := shell.ResolvePath(c.Ex.Dir, a)
		if isDevice(p) {
			return hit(c.Ex.Name + " creates a new file system on " + p + ", erasing it")
		}
	}
	return Finding{}
}

// checkPartition: partitioning and signature-wiping tools on a device;
// their listing modes are fine.
func checkPartition(c *Call) Finding {
	for _, a := range c.Args {
		switch a {
		case "-l", "--list", "print", "-p", "--print", "--help", "-h", "-V", "--version", "--dry-run", "-n", "--noact", "--no-act":
			return Finding{}
		case "-d", "--dump", "-J", "--json", "-s", "--show-size", "-g", "--show-geometry", "--verify", "--list-free", "-F", "--list-types", "-T":
			if c.Ex.Name == "sfdisk" {
				return Finding{} // sfdisk's dumps and listings only read
			}
		}
	}
	if c.Ex.Name == "wipefs" {
		wipes := false
		for _, a := range c.Args {
			if a == "-a" || a == "--all" || strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--offset") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "a") {
				wipes = true
			}
		}
		if !wipes {
			return Finding{}
		}
	}
	for _, a := range c.Args {
		if p := shell.ResolvePath(c.Ex.Dir, a); isDevice(p) {
			return hit(c.Ex.Name + " rewrites the partitions or signatures of " + p)
		}
	}
	return Finding{}
}

func checkShred(c *Call) Finding {
	for _, a := range c.Args {
		if a == "--help" || a == "--version" {
			return Finding{}
		}
	}
	if c.selectiveFindExec() {
		return Finding{} // find src -name '*.key' -exec shred -u {} +: fs.find-delete judges the selection
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") && a != "-" {
			continue
		}
		// A file of the workspace or a temporary directory is a delete
		// there, like rm; anything else (a device, home, the system,
		// .git, a path not known) is destroyed beyond recovery.
		l := c.Loc(a)
		if !l.Maybe && !l.Computed && (l.Place == InWorkspace || l.Place == InTemp || l.Place == Trusted) {
			continue
		}
		return hit("shred overwrites " + c.Show(a) + " (" + l.Place.String() + ") so that it can never be recovered")
	}
	return Finding{}
}
