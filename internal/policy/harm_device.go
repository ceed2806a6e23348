package policy

import "github.com/gemini-guard/gemini-guard/internal/effects"

// harmDeviceWrite: a disk or partition of the inventory written by a
// program that is known to write it (a redirection, a formatter, a
// labeller, a sanitizer), on the BSDs and macOS as much as on Linux
// (disk.* judges the Linux tools by name). Generic guesses do not count
// here: the long tail of device tools mostly reads (smartctl, hdparm -I).
var harmDeviceWrite = &Rule{
	ID: "harm.device-write", Category: "harm",
	Protects: "the disks and partitions of the inventory (internal/effects: /dev/sd*, nvme*, vd*, mmcblk*, disk*/rdisk* on macOS, ada*/da*/nda*/wd*/sd* on the BSDs, mapped and ZFS volumes, GPT labels), from formatters (newfs*), labellers (disklabel -w, fdisk -i, gpart destroy/create), sanitizers and formats (nvmecontrol, camcontrol), key destruction (geli kill) and redirections",
	What:     "writes a disk or partition",
	Safer:    "ask the user to partition, format or wipe disks themselves; list them (gpart show, camcontrol devlist, diskutil list) if that is what the task needs",
	Unknown:  "A device that cannot be known statically is not judged here.",
	Commands: []string{"*"}, exec: checkDeviceWrite,
	Block: []string{
		`newfs_msdos -F 32 /dev/da0`,
		`disklabel -w -A sd1`,
		`fdisk -iy sd0`,
		`nvmecontrol format nvme0`,
		`camcontrol sanitize ada1 -a block -y`,
		`geli kill ada0`,
		`gpart destroy -F ada1`,
		`cat image.img > /dev/rdisk2`,
	},
	Allow: []string{
		`newfs -N /dev/ada1p1`,
		`gpart show ada0`,
		`camcontrol devlist`,
		`nvmecontrol devlist`,
		`geli status`,
		`fdisk -l /dev/sda`,
		`smartctl -a /dev/ada0`,
		`disklabel sd0`,
	},
}

func checkDeviceWrite(c *Call) Finding {
	for _, e := range c.effectsOf() {
		if e.Kind != effects.Write || e.Generic {
			continue
		}
		if o := effects.LookupClass(e.Path, c.Ctx.Home, effects.Device); o != nil {
			return hit("writes " + o.What + " (" + e.Path + "): what it held is lost")
		}
	}
	return Finding{}
}
