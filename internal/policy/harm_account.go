package policy

import "github.com/gemini-guard/gemini-guard/internal/effects"

// harmAccountChange: users, groups, passwords or who may become root
// changed, by an account tool or by writing an account database.
var harmAccountChange = &Rule{
	ID: "harm.account-change", Category: "harm",
	Protects: "the machine's accounts: users, groups and passwords changed with useradd, usermod, passwd, chpasswd, gpasswd (Linux), dscl, sysadminctl, dseditgroup (macOS), pw, chpass, rmuser (BSD), samba-tool and ldap tools (a domain); and the account databases of the inventory written (passwd, shadow, group, master.passwd, sudoers, doas.conf, the macOS local directory, polkit rules)",
	What:     "changes the machine's users, groups, passwords or who may become root",
	Safer:    "ask the machine's administrator to make the account change",
	Unknown:  "A path that cannot be known statically is not judged here.",
	Commands: []string{"*"}, exec: checkAccountChange,
	Block: []string{
		`sudo dscl . -create /Users/svc`,
		`sudo dscl . -append /Groups/admin GroupMembership svc`,
		`sudo sysadminctl -addUser svc -password hunter2 -admin`,
		`sudo pw useradd svc -m -G wheel`,
		`sudo dseditgroup -o edit -a svc -t user admin`,
		`echo 'permit nopass svc' | sudo tee -a /usr/local/etc/doas.conf`,
		`sudo usermod -aG docker svc`,
		`echo 'svc:x:0:0::/root:/bin/sh' | sudo tee -a /etc/passwd`,
		`echo 'svc:hunter2' | sudo chpasswd`,
		`sudo gpasswd -a svc wheel`,
		`sudo pwpolicy -u ann -disableuser`,
		`sudo fdesetup add -usertoadd svc`,
		`doas user add -m -G wheel svc`,
		`sudo pwd_mkdb -p /tmp/master.passwd`,
		`aws iam attach-user-policy --user-name ci --policy-arn arn:aws:iam::aws:policy/AdministratorAccess`,
		`gcloud projects add-iam-policy-binding acme --member user:x@example.com --role roles/owner`,
		`sudo groupmems -g sudo -a helper`,
		`kadmin -q 'addprinc -randkey x/admin'`,
		`net.exe user Administrator 'N3wPass!'`,
		`sudo sss_override user-add ann -u 0`,
		`kubectl create clusterrolebinding dev-admin --clusterrole=cluster-admin --user=dev@example.org`,
		`kubectl --context prod create clusterrolebinding ci --clusterrole cluster-admin --serviceaccount=default:ci`,
		`oc adm policy add-cluster-role-to-user cluster-admin dev`,
		`kubectl patch clusterrolebinding cluster-admin --type=merge -p '{"subjects":[{"kind":"User","name":"temp-ops"}]}'`,
		`oc adm policy add-scc-to-group anyuid system:serviceaccounts:build`,
		`aws iam put-role-policy --role-name lambda-exec --policy-name all --policy-document '{"Statement":[{"Effect":"Allow","Action": "*","Resource":"*"}]}'`,
		`gcloud iam service-accounts add-iam-policy-binding ci@acme-dev.iam.gserviceaccount.com --member=user:temp@acme.dev --role=roles/iam.serviceAccountUser`,
		`gcloud projects set-iam-policy acme-dev iam.json`,
	},
	Allow: []string{
		`dscl . -list /Users`,
		`dscl . -read /Users/ann UserShell`,
		`pw usershow ann`,
		`dseditgroup -o checkmember -m ann admin`,
		`getent passwd ann`,
		`cat /etc/passwd`,
		`passwd -S ann`,
		`chage -l ann`,
		`id ann`,
		`pw useradd -n ci -u 1050 -N`,
		`visudo -c -f /usr/local/etc/sudoers`,
		`sysadminctl -guestAccount status`,
		`pwpolicy -getaccountpolicies`,
		`fdesetup list`,
		`aws iam attach-role-policy --role-name app --policy-arn arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess`,
		`gcloud projects get-iam-policy acme`,
		`groupmems -g docker -l`,
		`kadmin -q 'listprincs'`,
		`net.exe user ann`,
		`sudo sss_override user-show ann`,
		`kubectl create rolebinding view --clusterrole=view --user=dev -n team`,
		`kubectl create clusterrolebinding readers --clusterrole=view --group=devs`,
		`kubectl get clusterrolebinding cluster-admin -o yaml`,
		`kubectl create clusterrolebinding ops --clusterrole=cluster-admin --user=ops --dry-run=client -o yaml`,
		`aws iam put-role-policy --role-name lambda-exec --policy-name logs --policy-document '{"Statement":[{"Effect":"Allow","Action":"logs:PutLogEvents","Resource":"*"}]}'`,
		`gcloud projects get-iam-policy acme-dev --format=json`,
		`oc adm policy add-scc-to-user restricted-v2 -z web`,
	},
}

func checkAccountChange(c *Call) Finding {
	for _, e := range c.effectsOf() {
		switch {
		case e.Kind == effects.Change && e.Area == effects.Accounts && e.Name != c.Ex.Name:
			return hit(c.Ex.Name + " " + e.Action + " grants " + e.Name)
		case e.Kind == effects.Change && e.Area == effects.Accounts:
			what := c.Ex.Name
			if e.Action != "" {
				what += " " + e.Action
			}
			return hit(what + " changes the machine's users, groups or passwords")
		case e.Kind == effects.Write && !c.inProject(e.Path):
			if o := effects.LookupClass(e.Path, c.Ctx.Home, effects.Account); o != nil {
				return hit("writes " + o.What + " (" + e.Path + ")")
			}
		}
	}
	return Finding{}
}
