// Package inventory owns the servers file: the team's GPU servers, their
// GPU ids, hosts and prices, the admins, the default time zone and the
// reservation rules (longest reservation, reminder, idle nudge), and the
// map from Unix users to Slack users that the GPU agent reports through.
//
// Parse reads the YAML file and reports every mistake with its line and a
// did-you-mean; Default is the built-in example fleet used when no file is
// given; (*Inventory).Server finds a server by the forgiving names people
// type. The package knows nothing of Slack, Redis or logging: commands
// reads an *Inventory, cmd/gpuplan loads it.
package inventory
