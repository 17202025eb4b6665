package bot

// RequiredScopes are the bot-token scopes gpuplan uses; the Slack app
// manifest in deploy/ grants exactly these (a test keeps them equal).
var RequiredScopes = []struct{ Scope, Why string }{
	{"commands", "the /gpuplan slash command"},
	{"chat:write", "answers, shared plans and announcements"},
	{"chat:write.public", "digests in public channels the bot has not joined"},
	{"app_mentions:read", "@gpuplan mentions"},
	{"im:history", "direct messages to the bot"},
	{"im:write", "opening a DM for reminders and modal results"},
	{"users:read", "users' time zones"},
	{"channels:read", "checking public channels for announcements"},
	{"groups:read", "checking private channels the bot was added to"},
	{"files:write", "digest charts"},
}

// BotEvents are the event subscriptions the manifest declares.
var BotEvents = []string{"app_mention", "message.im", "app_home_opened"}
