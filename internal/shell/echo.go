package shell

// EchoOutput is what echo or printf with these resolved arguments
// (Args[0] the command) prints, when it can be computed: echo's -n/-e/-E
// flags and printf's format applied as bash does. The secrets guard uses
// it to see a secret that only exists once printed.
func EchoOutput(args []string) (string, bool) { return echoOutput(args) }
