# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_agentbox_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_agentbox_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_agentbox_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_agentbox_using_subcommand
    set -l cmd (__fish_agentbox_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c agentbox -n "__fish_agentbox_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_needs_command" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_needs_command" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "plan" -d 'Plans with ordered steps: create, track status, pick the next step'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "track" -d 'Trajectories: record agent and user turns into episodes, per session'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "knowledge" -d 'Curated notes with claims and revisions, and the user\'s profile facts'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "skill_forge" -d 'Skills in the Agent Skills format: scaffold, draft, lint, screen, install'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "evolve" -d 'Learn from the recorded trajectories: mine episodes into proposals (skills, preferences, knowledge notes), review them, apply or reject'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "persona" -d 'Named personas: who the agent is (tone, verbosity, language, free text)'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "proactive" -d 'Foresight and reminders: time-bounded items, and what to bring up before being asked'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "sync" -d 'Share the home through any git remote; install memory_mcp and skills into host agents'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "memory_mcp" -d 'Serve the agent\'s memory to MCP hosts (JSON-RPC over stdio, or HTTP)'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "init" -d 'Create an agent home (.agent/) with its config, folders and tool links'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "link" -d 'Re-create or repair the links in .agent/tools/ (idempotent)'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "doctor" -d 'Check the home: config, folders, links, documents, search index'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "search" -d 'Search all memory at once: turns, notes, facts and whatever else the tools index'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "reindex" -d 'Rebuild the search index from the files of the home'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "model" -d 'Reach the model route (an Oda runtime): check the handshake or ask one turn'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "view" -d 'See what your agent remembers and has learned, in the browser'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "man" -d 'Print a man page'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -f -a "create" -d 'Create a plan from a title and --step flags, or from a plan file'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -f -a "show" -d 'Show a plan as a checklist (default: the most recently updated active plan)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -f -a "list" -d 'List plans, most recently updated first'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -f -a "step" -d 'Set a step\'s status and/or note'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -f -a "add-step" -d 'Add a step (at the end, or after step N; later steps are renumbered)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -f -a "next" -d 'Show the step to work on: the one in progress, else the first pending one'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and not __fish_seen_subcommand_from create show list step add-step next archive" -f -a "archive" -d 'Archive a plan: it stays readable but takes no more changes'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -l step -d 'A step, in order (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -l file -d 'Read the plan from a JSON or markdown file ("-" for stdin)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -l id -d 'Plan id (default: derived from the title, made unique)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from list" -l all -d 'Include archived plans'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -l status -d 'New status' -r -f -a "pending\t''
in_progress\t''
done\t''
blocked\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -l note -d 'Note for the step (an empty note clears it)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -l expect-version -d 'Refuse the write unless the plan is at this version' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from step" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -l after -d 'Insert after step N (0 = at the top)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -l expect-version -d 'Refuse the write unless the plan is at this version' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from add-step" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -l expect-version -d 'With --start: refuse the write unless the plan is at this version' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -l start -d 'Also mark that step in_progress (a mutation)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from next" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from archive" -l expect-version -d 'Refuse the write unless the plan is at this version' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from archive" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from archive" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from archive" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from archive" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from archive" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from archive" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand plan; and __fish_seen_subcommand_from archive" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "record" -d 'Record one turn (from flags), or a batch of messages (--messages)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "flush" -d 'Close the open episode of a session (nothing open is fine)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "list" -d 'List episodes, newest first'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "show" -d 'Show an episode\'s turns as a transcript'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "search" -d 'Search turns: ranked by relevance and recency; questions work as well as keywords'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "stats" -d 'Count sessions, episodes, turns by role and tool calls by name'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "activity" -d 'Turns per day per session over the last days, from the search index'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "prune" -d 'Delete closed episodes whose last turn is older than a cutoff'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and not __fish_seen_subcommand_from record flush list show search stats activity prune import" -f -a "import" -d 'Import an odek.event/v1 JSONL stream: one closed episode per run'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l session -d 'Session key [default: default, or the sessionKey of --messages]' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l role -d 'Role of the turn [default: user]' -r -f -a "user\t''
assistant\t''
system\t''
tool\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l content -d 'The turn\'s text' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l content-file -d 'Read the turn\'s text from a file ("-" for stdin)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l tool-call-id -d 'The tool call this turn answers (role tool)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l messages -d 'Read messages[] JSON from a file ("-" for stdin)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l at -d 'When the turn was said (RFC 3339) [default: now]; with --messages, the time of messages without a timestamp' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -l flush -d 'Close the episode after saving'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from record" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from flush" -l session -d 'Session key' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from flush" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from flush" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from flush" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from flush" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from flush" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from flush" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from flush" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -l session -d 'Only this session\'s episodes' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -l limit -d 'Show at most N episodes (0: all)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -l offset -d 'Skip the N newest episodes first (pages: --limit 20 --offset 40 is the third)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from show" -l session -d 'This home\'s open (else the latest) episode of this session' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l session -d 'Only documents of this session (turns carry one)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l tag -d 'Only documents with this tag (a note\'s tag, a turn\'s role or tool, a fact\'s section)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l since -d 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l until -d 'Only documents dated on or before DATE (a plain date covers the whole day)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l limit -d 'Most hits to return (1–50)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -l explain -d 'Say why each hit ranked where it did: its words\' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query\'s names weighed'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from search" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from stats" -l session -d 'Only this session' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from stats" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from stats" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from stats" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from stats" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from stats" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from stats" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from stats" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -l days -d 'How many days, ending today (UTC), 1-366' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -l sessions -d 'Show the N busiest sessions of the window, sum the rest, 1-100' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from activity" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -l older-than -d 'A duration back from now (90m, 12h, 30d, 2w) or a date/time (2026-01-01, RFC 3339)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -l session -d 'Only this session' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -l dry-run -d 'Report what would be removed, remove nothing'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from import" -l session -d 'Store every run in this session [default: the stream\'s session_id, else odek-<run id prefix>]' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from import" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from import" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from import" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from import" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand track; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "add" -d 'Add a note (rev 1)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "show" -d 'Show a note: metadata, claims and body'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "list" -d 'List notes, most recently updated first'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "edit" -d 'Change a note (rev + 1). --expect-version is required: edits replace what you read'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "rm" -d 'Delete a note'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "link" -d 'Link a note to another (or --unlink), rev + 1 when that changes anything'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "search" -d 'Search notes: keywords or a natural-language question, best match first'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "lint" -d 'Check the notes: unreadable files, broken links, duplicates, contradicting claims'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and not __fish_seen_subcommand_from add show list edit rm link search lint profile" -f -a "profile" -d 'The user\'s profile facts (memory/personal/PROFILE.md)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l body -d 'Note body (markdown)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l file -d 'Read the body from a file ("-" for stdin)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l tag -d 'A tag (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l source -d 'A source: URL, path or citation (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l link -d 'Link to another note by slug (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l claim -d 'A claim KEY=VALUE, like go.formatter=gofmt (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l slug -d 'Slug (default: derived from the title, made unique)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -l supersede -d 'Take contradicting claims out of the other notes instead of failing'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -l tag -d 'Only notes with this tag' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -l limit -d 'Show at most N notes (0: all)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -l offset -d 'Skip the N most recently updated notes first (pages: --limit 50 --offset 50 is the second)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l title -d 'New title' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l body -d 'New body (replaces the old one)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l file -d 'Read the new body from a file ("-" for stdin)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l add-tag -d 'Add a tag (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l rm-tag -d 'Remove a tag (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l add-source -d 'Add a source (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l rm-source -d 'Remove a source (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l claim -d 'Set a claim KEY=VALUE (adds it, or replaces this note\'s value)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l rm-claim -d 'Remove a claim by key (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l expect-version -d 'Refuse the write unless the note is at this rev (required; without it the error names the note\'s current rev)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -l supersede -d 'Take contradicting claims out of the other notes instead of failing'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from rm" -l expect-version -d 'Refuse unless the note is at this rev' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -l expect-version -d 'Refuse unless the note is at this rev' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -l unlink -d 'Remove the link instead (works for links to missing notes too)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from link" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l session -d 'Only documents of this session (turns carry one)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l tag -d 'Only documents with this tag (a note\'s tag, a turn\'s role or tool, a fact\'s section)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l since -d 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l until -d 'Only documents dated on or before DATE (a plain date covers the whole day)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l limit -d 'Most hits to return (1–50)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -l explain -d 'Say why each hit ranked where it did: its words\' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query\'s names weighed'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from search" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from lint" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from lint" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from lint" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from lint" -l strict -d 'Fail (conflict, exit 1) when there is any finding'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from lint" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from lint" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from lint" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -f -a "add" -d 'Add a fact (under ## Facts) or a preference (under ## Preferences)'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -f -a "list" -d 'List the facts, numbered within each section'
complete -c agentbox -n "__fish_agentbox_using_subcommand knowledge; and __fish_seen_subcommand_from profile" -f -a "rm" -d 'Remove a fact by number (needs --section) or by its text'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -f -a "new" -d 'Scaffold a new skill (unscreened until `screen`)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -f -a "from-episode" -d 'Draft a skill from a recorded episode, screen it and add it'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -f -a "lint" -d 'Check skills against the Agent Skills specification'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -f -a "screen" -d 'Screen every file of a skill for malicious behaviour'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -f -a "install" -d 'Copy a skill folder into the home after screening it'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -f -a "list" -d 'List the skills of the home with their screening status'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -f -a "show" -d 'Show a skill: front matter, body, files, status, and the hash its verdict was given for'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and not __fish_seen_subcommand_from new from-episode lint screen install list show rm" -f -a "rm" -d 'Remove a skill and its screening record'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -l description -d 'What the skill does and when to use it (1-1024 characters)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -l body -d 'Read the markdown body from a file ("-" for stdin)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from new" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -l name -d 'Skill name (default: derived from the request)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -l accept-warnings -d 'Add the draft even when its screen warns'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from from-episode" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from lint" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from lint" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from lint" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from lint" -l strict -d 'Fail (conflict, exit 1) when there is any finding'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from lint" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from lint" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from lint" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -l strict -d 'Exit 1 (permission) when the verdict is fail'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -l accept-warnings -d 'Record a `warn` verdict as accepted (skills of the home only)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -l deep -d 'Also ask the model route for a judgement (it can only raise the verdict)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from screen" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -l name -d 'Install under this name (default: the front matter\'s name)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -l accept-warnings -d 'Install even when the screen warns'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from install" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from show" -l findings -d 'Also screen the files as they are now and list the findings (records nothing)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand skill_forge; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -f -a "run" -d 'Mine the episodes not yet mined into proposals'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -f -a "list" -d 'List proposals, newest run first'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -f -a "show" -d 'Show a run (its id) or a proposal (its p-… id) in full'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -f -a "apply" -d 'Apply proposals: install the skill, add the preference to PROFILE.md, or write the knowledge note'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and not __fish_seen_subcommand_from run list show apply reject" -f -a "reject" -d 'Reject proposals (they are never proposed again)'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l since -d 'Mine episodes started on or after DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default: after the high-water mark)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l session -d 'Mine only these sessions (repeatable)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l max-episodes -d 'Stop after mining N episodes (default: config evolve.max_episodes)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l max-seconds -d 'Stop after S seconds (default: config evolve.max_seconds)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l max-model-calls -d 'Stop after N model calls (default: config evolve.max_model_calls)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l max-cost-usd -d 'Stop when the estimated model cost reaches X US dollars (default: config evolve.max_cost_usd)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -l dry-run -d 'Mine and report, but write nothing (no run folder, no state)'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from run" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -l status -d 'Only proposals with this status' -r -f -a "pending\t''
applied\t''
rejected\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -l limit -d 'At most N proposals (a page; meta.matched says how many there are)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -l offset -d 'Skip the first N proposals (with --limit: the next page)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -l expect-plan -d 'Refuse (conflict) unless the proposals and the files they write are as the `--dry-run` that printed this fingerprint saw them' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -l accept-warnings -d 'Apply a skill, preference or note whose screen verdict is `warn`'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -l dry-run -d 'Check the proposals and show exactly what applying them would write (a diff per file) and the plan\'s fingerprint; write nothing'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from apply" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from reject" -l reason -d 'Why (kept with the proposal)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from reject" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from reject" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from reject" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from reject" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from reject" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from reject" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand evolve; and __fish_seen_subcommand_from reject" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "list" -d 'List the personas (* marks the active one)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "show" -d 'Show a persona: traits, body, rev (default: the active one)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "create" -d 'Create a persona (the first one becomes active)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "set" -d 'Set traits (and the text) of a persona: one new revision'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "unset" -d 'Remove traits of a persona: one new revision'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "use" -d 'Make a persona the active one (persona/ACTIVE)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "render" -d 'Print the markdown block to splice into a system prompt'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "history" -d 'List the revisions of a persona, newest first'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and not __fish_seen_subcommand_from list show create set unset use render history revert" -f -a "revert" -d 'Restore an earlier revision\'s traits and text, as a new revision'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -l from -d 'Start from another persona\'s traits and text' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -l trait -d 'A trait, KEY=VALUE (repeatable): tone, verbosity, language or any key' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -l text -d 'Read the free-text body from a file ("-" for stdin)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -l accept-warnings -d 'Write it even when the screen of the persona\'s text warns'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -l text -d 'Replace the free-text body with a file\'s ("-" for stdin)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -l expect-version -d 'Refuse (conflict) unless the persona is at this rev' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -l accept-warnings -d 'Write it even when the screen of the persona\'s text warns'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -l expect-version -d 'Refuse (conflict) unless the persona is at this rev' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -l accept-warnings -d 'Write it even when the screen of the persona\'s text warns'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from unset" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from use" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from use" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from use" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from use" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from use" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from use" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from use" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from render" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from render" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from render" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from render" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from render" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from render" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from history" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from history" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from history" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from history" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from history" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from history" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -l expect-version -d 'Refuse (conflict) unless the persona is at this rev' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -l accept-warnings -d 'Write it even when the screen of the persona\'s text warns'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand persona; and __fish_seen_subcommand_from revert" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -f -a "add" -d 'Add an item'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -f -a "list" -d 'List items: open and snoozed ones (not expired, dismissed or done)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -f -a "due" -d 'Items to act on: due soon, or valid without a due time'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -f -a "dismiss" -d 'Dismiss items: not needed after all (they are never shown again)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -f -a "done" -d 'Mark items done (they are never shown again)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -f -a "snooze" -d 'Hide an item until WHEN; it comes back then'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -f -a "scan" -d 'Suggestions from the home, each with the command that resolves it'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and not __fish_seen_subcommand_from add list due dismiss done snooze scan extract" -f -a "extract" -d 'Foresight from recent episodes: commitments and deadlines become items'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -l from -d 'When the item becomes valid (default: now)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -l until -d 'When it stops being valid (default: --due, else 7 days after --from)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -l due -d 'When it is due' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -l tag -d 'A tag (repeat for more)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -l limit -d 'At most N items (a page; meta.matched says how many there are)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -l offset -d 'Skip the first N items (with --limit: the next page)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -l all -d 'Every item, whatever its state'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -l at -d 'The instant to look from (default: now)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -l within -d 'How far ahead: N and a unit, m h d or w (default: 1d)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from due" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from dismiss" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from dismiss" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from dismiss" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from dismiss" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from dismiss" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from dismiss" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from dismiss" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from done" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from done" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from done" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from done" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from done" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from done" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from done" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from snooze" -l until -d 'When the item comes back' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from snooze" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from snooze" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from snooze" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from snooze" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from snooze" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from snooze" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from snooze" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from scan" -l stale-days -d 'An in-progress plan step untouched this many days is stale (default: config proactive.stale_days, 3)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from scan" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from scan" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from scan" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from scan" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from scan" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from scan" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -l since -d 'Episodes since DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default: after the last extraction)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -l session -d 'Only these sessions (repeatable)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand proactive; and __fish_seen_subcommand_from extract" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -f -a "init" -d 'Start keeping the home\'s history (and take the remote\'s, when it has one)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -f -a "remote" -d 'Show, set or remove the remote'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -f -a "status" -d 'What is unsynced: commits ahead/behind the remote, changed files'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -f -a "pull" -d 'Take the remote\'s changes into the home (commits local changes first)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -f -a "push" -d 'Send the home\'s changes to the remote (integrating the remote\'s first)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -f -a "now" -d 'Pull, then push: the one command to run after a session'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -f -a "abort" -d 'Drop a pull that stopped part-way and keeps failing to finish'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and not __fish_seen_subcommand_from init remote status pull push now abort hosts" -f -a "hosts" -d 'Detect host agents; install or remove memory_mcp and the screened skills'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from init" -l remote -d 'The remote to sync with (https:// or file://; credentials come from git credential helpers or GIT_ASKPASS, never from the URL)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from init" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from init" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from init" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from init" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from init" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -f -a "show" -d 'Show the remote (the default)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -f -a "set" -d 'Set the remote'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from remote" -f -a "rm" -d 'Forget the remote (the history stays)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from status" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from status" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from status" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from status" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from pull" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from pull" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from pull" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from pull" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from pull" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from pull" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from pull" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from push" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from push" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from push" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from push" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from push" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from push" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from push" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from now" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from now" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from now" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from now" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from now" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from now" -s h -l help -d 'Print help'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from now" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from abort" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from abort" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from abort" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from abort" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from abort" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from abort" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from abort" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -l follow-symlinks -d 'Write a host\'s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -f -a "list" -d 'List the hosts, what is detected and what is installed (the default)'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -f -a "install" -d 'Register memory_mcp in each host\'s config and export the screened skills'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts" -f -a "remove" -d 'Remove what agentbox wrote (and only that) from each host'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -l http -d 'Serve Streamable HTTP at ADDR (HOST:PORT) instead of stdio' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and not __fish_seen_subcommand_from token" -f -a "token" -d 'Make the bearer token --http requires (kept in the home, never printed)'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and __fish_seen_subcommand_from token" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and __fish_seen_subcommand_from token" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and __fish_seen_subcommand_from token" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and __fish_seen_subcommand_from token" -l new -d 'Replace the existing token (clients holding the old one are refused)'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and __fish_seen_subcommand_from token" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and __fish_seen_subcommand_from token" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and __fish_seen_subcommand_from token" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand memory_mcp; and __fish_seen_subcommand_from token" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -l nested -d 'Create the home even though a folder above already has one: commands run in this folder then use the new home, not the one above'
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand link" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand link" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand link" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand link" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand link" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand link" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand link" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand doctor" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand doctor" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand doctor" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand doctor" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand doctor" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l session -d 'Only documents of this session (turns carry one)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l tag -d 'Only documents with this tag (a note\'s tag, a turn\'s role or tool, a fact\'s section)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l since -d 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l until -d 'Only documents dated on or before DATE (a plain date covers the whole day)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l limit -d 'Most hits to return (1–50)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l kind -d 'Only this kind (repeat for several; default: all)' -r -f -a "turn\t''
note\t''
fact\t''
skill\t''
persona\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -l explain -d 'Say why each hit ranked where it did: its words\' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query\'s names weighed'
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand search" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand reindex" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand reindex" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand reindex" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand reindex" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand reindex" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand reindex" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand reindex" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand completions" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand completions" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand completions" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand completions" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand completions" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand completions" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -f -a "check" -d 'Start the runtime, initialize the route, shut down: does the route work?'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and not __fish_seen_subcommand_from check ask" -f -a "ask" -d 'Ask one turn and print the answer'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from check" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from check" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from check" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from check" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -l session -d 'Session to prompt (a new one when left out); reuse the sessionId of an earlier answer to continue it' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -l image -d 'Attach an image: png, jpeg, webp or gif (repeat for more)' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand model; and __fish_seen_subcommand_from ask" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -l port -d 'Listen on this port (default: a free one)' -r
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -l open -d 'Open the URL in the default browser'
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand view" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -l list -d 'List the page names instead (one per line in text; data.pages in json)'
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -s v -l verbose -d 'Log what happens to stderr'
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -s V -l version -d 'Print version'
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts; and __fish_seen_subcommand_from install" -f -a "claude-code codex cursor gemini vscode zed odek"
complete -c agentbox -n "__fish_agentbox_using_subcommand sync; and __fish_seen_subcommand_from hosts; and __fish_seen_subcommand_from remove" -f -a "claude-code codex cursor gemini vscode zed odek"
complete -c agentbox -n "__fish_agentbox_using_subcommand completions" -f -a "bash elvish fish powershell zsh"
complete -c agentbox -n "__fish_agentbox_using_subcommand man" -f -a "agentbox agentbox-init agentbox-link agentbox-doctor agentbox-search agentbox-reindex agentbox-completions agentbox-man agentbox-model agentbox-view plan-create plan-show plan-list plan-step plan-add-step plan-next plan-archive plan track-record track-flush track-list track-show track-search track-stats track-activity track-prune track-import track knowledge-add knowledge-show knowledge-list knowledge-edit knowledge-rm knowledge-link knowledge-search knowledge-lint knowledge-profile knowledge skill_forge-new skill_forge-from-episode skill_forge-lint skill_forge-screen skill_forge-install skill_forge-list skill_forge-show skill_forge-rm skill_forge evolve-run evolve-list evolve-show evolve-apply evolve-reject evolve persona-list persona-show persona-create persona-set persona-unset persona-use persona-render persona-history persona-revert persona proactive-add proactive-list proactive-due proactive-dismiss proactive-done proactive-snooze proactive-scan proactive-extract proactive sync-init sync-remote sync-status sync-pull sync-push sync-now sync-abort sync-hosts sync memory_mcp-token memory_mcp"
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_plan_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_plan_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_plan_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_plan_using_subcommand
    set -l cmd (__fish_plan_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c plan -n "__fish_plan_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c plan -n "__fish_plan_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c plan -n "__fish_plan_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan -n "__fish_plan_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c plan -n "__fish_plan_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c plan -n "__fish_plan_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plan -n "__fish_plan_needs_command" -s V -l version -d 'Print version'
complete -c plan -n "__fish_plan_needs_command" -f -a "create" -d 'Create a plan from a title and --step flags, or from a plan file'
complete -c plan -n "__fish_plan_needs_command" -f -a "show" -d 'Show a plan as a checklist (default: the most recently updated active plan)'
complete -c plan -n "__fish_plan_needs_command" -f -a "list" -d 'List plans, most recently updated first'
complete -c plan -n "__fish_plan_needs_command" -f -a "step" -d 'Set a step\'s status and/or note'
complete -c plan -n "__fish_plan_needs_command" -f -a "add-step" -d 'Add a step (at the end, or after step N; later steps are renumbered)'
complete -c plan -n "__fish_plan_needs_command" -f -a "next" -d 'Show the step to work on: the one in progress, else the first pending one'
complete -c plan -n "__fish_plan_needs_command" -f -a "archive" -d 'Archive a plan: it stays readable but takes no more changes'
complete -c plan -n "__fish_plan_using_subcommand create" -l step -d 'A step, in order (repeat for more)' -r
complete -c plan -n "__fish_plan_using_subcommand create" -l file -d 'Read the plan from a JSON or markdown file ("-" for stdin)' -r
complete -c plan -n "__fish_plan_using_subcommand create" -l id -d 'Plan id (default: derived from the title, made unique)' -r
complete -c plan -n "__fish_plan_using_subcommand create" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c plan -n "__fish_plan_using_subcommand create" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c plan -n "__fish_plan_using_subcommand create" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan -n "__fish_plan_using_subcommand create" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c plan -n "__fish_plan_using_subcommand create" -s v -l verbose -d 'Log what happens to stderr'
complete -c plan -n "__fish_plan_using_subcommand create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plan -n "__fish_plan_using_subcommand create" -s V -l version -d 'Print version'
complete -c plan -n "__fish_plan_using_subcommand show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c plan -n "__fish_plan_using_subcommand show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c plan -n "__fish_plan_using_subcommand show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan -n "__fish_plan_using_subcommand show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c plan -n "__fish_plan_using_subcommand show" -s v -l verbose -d 'Log what happens to stderr'
complete -c plan -n "__fish_plan_using_subcommand show" -s h -l help -d 'Print help'
complete -c plan -n "__fish_plan_using_subcommand show" -s V -l version -d 'Print version'
complete -c plan -n "__fish_plan_using_subcommand list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c plan -n "__fish_plan_using_subcommand list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c plan -n "__fish_plan_using_subcommand list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan -n "__fish_plan_using_subcommand list" -l all -d 'Include archived plans'
complete -c plan -n "__fish_plan_using_subcommand list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c plan -n "__fish_plan_using_subcommand list" -s v -l verbose -d 'Log what happens to stderr'
complete -c plan -n "__fish_plan_using_subcommand list" -s h -l help -d 'Print help'
complete -c plan -n "__fish_plan_using_subcommand list" -s V -l version -d 'Print version'
complete -c plan -n "__fish_plan_using_subcommand step" -l status -d 'New status' -r -f -a "pending\t''
in_progress\t''
done\t''
blocked\t''"
complete -c plan -n "__fish_plan_using_subcommand step" -l note -d 'Note for the step (an empty note clears it)' -r
complete -c plan -n "__fish_plan_using_subcommand step" -l expect-version -d 'Refuse the write unless the plan is at this version' -r
complete -c plan -n "__fish_plan_using_subcommand step" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c plan -n "__fish_plan_using_subcommand step" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c plan -n "__fish_plan_using_subcommand step" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan -n "__fish_plan_using_subcommand step" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c plan -n "__fish_plan_using_subcommand step" -s v -l verbose -d 'Log what happens to stderr'
complete -c plan -n "__fish_plan_using_subcommand step" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plan -n "__fish_plan_using_subcommand step" -s V -l version -d 'Print version'
complete -c plan -n "__fish_plan_using_subcommand add-step" -l after -d 'Insert after step N (0 = at the top)' -r
complete -c plan -n "__fish_plan_using_subcommand add-step" -l expect-version -d 'Refuse the write unless the plan is at this version' -r
complete -c plan -n "__fish_plan_using_subcommand add-step" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c plan -n "__fish_plan_using_subcommand add-step" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c plan -n "__fish_plan_using_subcommand add-step" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan -n "__fish_plan_using_subcommand add-step" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c plan -n "__fish_plan_using_subcommand add-step" -s v -l verbose -d 'Log what happens to stderr'
complete -c plan -n "__fish_plan_using_subcommand add-step" -s h -l help -d 'Print help'
complete -c plan -n "__fish_plan_using_subcommand add-step" -s V -l version -d 'Print version'
complete -c plan -n "__fish_plan_using_subcommand next" -l expect-version -d 'With --start: refuse the write unless the plan is at this version' -r
complete -c plan -n "__fish_plan_using_subcommand next" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c plan -n "__fish_plan_using_subcommand next" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c plan -n "__fish_plan_using_subcommand next" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan -n "__fish_plan_using_subcommand next" -l start -d 'Also mark that step in_progress (a mutation)'
complete -c plan -n "__fish_plan_using_subcommand next" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c plan -n "__fish_plan_using_subcommand next" -s v -l verbose -d 'Log what happens to stderr'
complete -c plan -n "__fish_plan_using_subcommand next" -s h -l help -d 'Print help'
complete -c plan -n "__fish_plan_using_subcommand next" -s V -l version -d 'Print version'
complete -c plan -n "__fish_plan_using_subcommand archive" -l expect-version -d 'Refuse the write unless the plan is at this version' -r
complete -c plan -n "__fish_plan_using_subcommand archive" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c plan -n "__fish_plan_using_subcommand archive" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c plan -n "__fish_plan_using_subcommand archive" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan -n "__fish_plan_using_subcommand archive" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c plan -n "__fish_plan_using_subcommand archive" -s v -l verbose -d 'Log what happens to stderr'
complete -c plan -n "__fish_plan_using_subcommand archive" -s h -l help -d 'Print help'
complete -c plan -n "__fish_plan_using_subcommand archive" -s V -l version -d 'Print version'
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_track_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_track_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_track_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_track_using_subcommand
    set -l cmd (__fish_track_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c track -n "__fish_track_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c track -n "__fish_track_needs_command" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_needs_command" -f -a "record" -d 'Record one turn (from flags), or a batch of messages (--messages)'
complete -c track -n "__fish_track_needs_command" -f -a "flush" -d 'Close the open episode of a session (nothing open is fine)'
complete -c track -n "__fish_track_needs_command" -f -a "list" -d 'List episodes, newest first'
complete -c track -n "__fish_track_needs_command" -f -a "show" -d 'Show an episode\'s turns as a transcript'
complete -c track -n "__fish_track_needs_command" -f -a "search" -d 'Search turns: ranked by relevance and recency; questions work as well as keywords'
complete -c track -n "__fish_track_needs_command" -f -a "stats" -d 'Count sessions, episodes, turns by role and tool calls by name'
complete -c track -n "__fish_track_needs_command" -f -a "activity" -d 'Turns per day per session over the last days, from the search index'
complete -c track -n "__fish_track_needs_command" -f -a "prune" -d 'Delete closed episodes whose last turn is older than a cutoff'
complete -c track -n "__fish_track_needs_command" -f -a "import" -d 'Import an odek.event/v1 JSONL stream: one closed episode per run'
complete -c track -n "__fish_track_using_subcommand record" -l session -d 'Session key [default: default, or the sessionKey of --messages]' -r
complete -c track -n "__fish_track_using_subcommand record" -l role -d 'Role of the turn [default: user]' -r -f -a "user\t''
assistant\t''
system\t''
tool\t''"
complete -c track -n "__fish_track_using_subcommand record" -l content -d 'The turn\'s text' -r
complete -c track -n "__fish_track_using_subcommand record" -l content-file -d 'Read the turn\'s text from a file ("-" for stdin)' -r
complete -c track -n "__fish_track_using_subcommand record" -l tool-call-id -d 'The tool call this turn answers (role tool)' -r
complete -c track -n "__fish_track_using_subcommand record" -l messages -d 'Read messages[] JSON from a file ("-" for stdin)' -r
complete -c track -n "__fish_track_using_subcommand record" -l at -d 'When the turn was said (RFC 3339) [default: now]; with --messages, the time of messages without a timestamp' -r
complete -c track -n "__fish_track_using_subcommand record" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand record" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand record" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand record" -l flush -d 'Close the episode after saving'
complete -c track -n "__fish_track_using_subcommand record" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand record" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand record" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c track -n "__fish_track_using_subcommand record" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_using_subcommand flush" -l session -d 'Session key' -r
complete -c track -n "__fish_track_using_subcommand flush" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand flush" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand flush" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand flush" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand flush" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand flush" -s h -l help -d 'Print help'
complete -c track -n "__fish_track_using_subcommand flush" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_using_subcommand list" -l session -d 'Only this session\'s episodes' -r
complete -c track -n "__fish_track_using_subcommand list" -l limit -d 'Show at most N episodes (0: all)' -r
complete -c track -n "__fish_track_using_subcommand list" -l offset -d 'Skip the N newest episodes first (pages: --limit 20 --offset 40 is the third)' -r
complete -c track -n "__fish_track_using_subcommand list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand list" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand list" -s h -l help -d 'Print help'
complete -c track -n "__fish_track_using_subcommand list" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_using_subcommand show" -l session -d 'This home\'s open (else the latest) episode of this session' -r
complete -c track -n "__fish_track_using_subcommand show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand show" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c track -n "__fish_track_using_subcommand show" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_using_subcommand search" -l session -d 'Only documents of this session (turns carry one)' -r
complete -c track -n "__fish_track_using_subcommand search" -l tag -d 'Only documents with this tag (a note\'s tag, a turn\'s role or tool, a fact\'s section)' -r
complete -c track -n "__fish_track_using_subcommand search" -l since -d 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)' -r
complete -c track -n "__fish_track_using_subcommand search" -l until -d 'Only documents dated on or before DATE (a plain date covers the whole day)' -r
complete -c track -n "__fish_track_using_subcommand search" -l limit -d 'Most hits to return (1–50)' -r
complete -c track -n "__fish_track_using_subcommand search" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand search" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand search" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand search" -l explain -d 'Say why each hit ranked where it did: its words\' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query\'s names weighed'
complete -c track -n "__fish_track_using_subcommand search" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand search" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand search" -s h -l help -d 'Print help'
complete -c track -n "__fish_track_using_subcommand search" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_using_subcommand stats" -l session -d 'Only this session' -r
complete -c track -n "__fish_track_using_subcommand stats" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand stats" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand stats" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand stats" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand stats" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand stats" -s h -l help -d 'Print help'
complete -c track -n "__fish_track_using_subcommand stats" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_using_subcommand activity" -l days -d 'How many days, ending today (UTC), 1-366' -r
complete -c track -n "__fish_track_using_subcommand activity" -l sessions -d 'Show the N busiest sessions of the window, sum the rest, 1-100' -r
complete -c track -n "__fish_track_using_subcommand activity" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand activity" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand activity" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand activity" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand activity" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand activity" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c track -n "__fish_track_using_subcommand activity" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_using_subcommand prune" -l older-than -d 'A duration back from now (90m, 12h, 30d, 2w) or a date/time (2026-01-01, RFC 3339)' -r
complete -c track -n "__fish_track_using_subcommand prune" -l session -d 'Only this session' -r
complete -c track -n "__fish_track_using_subcommand prune" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand prune" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand prune" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand prune" -l dry-run -d 'Report what would be removed, remove nothing'
complete -c track -n "__fish_track_using_subcommand prune" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand prune" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c track -n "__fish_track_using_subcommand prune" -s V -l version -d 'Print version'
complete -c track -n "__fish_track_using_subcommand import" -l session -d 'Store every run in this session [default: the stream\'s session_id, else odek-<run id prefix>]' -r
complete -c track -n "__fish_track_using_subcommand import" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c track -n "__fish_track_using_subcommand import" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c track -n "__fish_track_using_subcommand import" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c track -n "__fish_track_using_subcommand import" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c track -n "__fish_track_using_subcommand import" -s v -l verbose -d 'Log what happens to stderr'
complete -c track -n "__fish_track_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c track -n "__fish_track_using_subcommand import" -s V -l version -d 'Print version'
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_knowledge_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_knowledge_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_knowledge_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_knowledge_using_subcommand
    set -l cmd (__fish_knowledge_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c knowledge -n "__fish_knowledge_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c knowledge -n "__fish_knowledge_needs_command" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "add" -d 'Add a note (rev 1)'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "show" -d 'Show a note: metadata, claims and body'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "list" -d 'List notes, most recently updated first'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "edit" -d 'Change a note (rev + 1). --expect-version is required: edits replace what you read'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "rm" -d 'Delete a note'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "link" -d 'Link a note to another (or --unlink), rev + 1 when that changes anything'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "search" -d 'Search notes: keywords or a natural-language question, best match first'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "lint" -d 'Check the notes: unreadable files, broken links, duplicates, contradicting claims'
complete -c knowledge -n "__fish_knowledge_needs_command" -f -a "profile" -d 'The user\'s profile facts (memory/personal/PROFILE.md)'
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l body -d 'Note body (markdown)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l file -d 'Read the body from a file ("-" for stdin)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l tag -d 'A tag (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l source -d 'A source: URL, path or citation (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l link -d 'Link to another note by slug (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l claim -d 'A claim KEY=VALUE, like go.formatter=gofmt (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l slug -d 'Slug (default: derived from the title, made unique)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -l supersede -d 'Take contradicting claims out of the other notes instead of failing'
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c knowledge -n "__fish_knowledge_using_subcommand add" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand show" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand show" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand show" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -l tag -d 'Only notes with this tag' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -l limit -d 'Show at most N notes (0: all)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -l offset -d 'Skip the N most recently updated notes first (pages: --limit 50 --offset 50 is the second)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand list" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l title -d 'New title' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l body -d 'New body (replaces the old one)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l file -d 'Read the new body from a file ("-" for stdin)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l add-tag -d 'Add a tag (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l rm-tag -d 'Remove a tag (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l add-source -d 'Add a source (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l rm-source -d 'Remove a source (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l claim -d 'Set a claim KEY=VALUE (adds it, or replaces this note\'s value)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l rm-claim -d 'Remove a claim by key (repeat for more)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l expect-version -d 'Refuse the write unless the note is at this rev (required; without it the error names the note\'s current rev)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -l supersede -d 'Take contradicting claims out of the other notes instead of failing'
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand edit" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand rm" -l expect-version -d 'Refuse unless the note is at this rev' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand rm" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand rm" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -l expect-version -d 'Refuse unless the note is at this rev' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -l unlink -d 'Remove the link instead (works for links to missing notes too)'
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand link" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l session -d 'Only documents of this session (turns carry one)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l tag -d 'Only documents with this tag (a note\'s tag, a turn\'s role or tool, a fact\'s section)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l since -d 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l until -d 'Only documents dated on or before DATE (a plain date covers the whole day)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l limit -d 'Most hits to return (1–50)' -r
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -l explain -d 'Say why each hit ranked where it did: its words\' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query\'s names weighed'
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand search" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand lint" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand lint" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand lint" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand lint" -l strict -d 'Fail (conflict, exit 1) when there is any finding'
complete -c knowledge -n "__fish_knowledge_using_subcommand lint" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand lint" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c knowledge -n "__fish_knowledge_using_subcommand lint" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -f -a "add" -d 'Add a fact (under ## Facts) or a preference (under ## Preferences)'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -f -a "list" -d 'List the facts, numbered within each section'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and not __fish_seen_subcommand_from add list rm" -f -a "rm" -d 'Remove a fact by number (needs --section) or by its text'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from add" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from add" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from add" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from add" -l preference -d 'File it under ## Preferences (default: ## Facts)'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from rm" -l section -d 'The section: required with a number; with a text, only look there' -r -f -a "preferences\t''
facts\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c knowledge -n "__fish_knowledge_using_subcommand profile; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_skill_forge_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_skill_forge_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_skill_forge_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_skill_forge_using_subcommand
    set -l cmd (__fish_skill_forge_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c skill_forge -n "__fish_skill_forge_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -s V -l version -d 'Print version'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -f -a "new" -d 'Scaffold a new skill (unscreened until `screen`)'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -f -a "from-episode" -d 'Draft a skill from a recorded episode, screen it and add it'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -f -a "lint" -d 'Check skills against the Agent Skills specification'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -f -a "screen" -d 'Screen every file of a skill for malicious behaviour'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -f -a "install" -d 'Copy a skill folder into the home after screening it'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -f -a "list" -d 'List the skills of the home with their screening status'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -f -a "show" -d 'Show a skill: front matter, body, files, status, and the hash its verdict was given for'
complete -c skill_forge -n "__fish_skill_forge_needs_command" -f -a "rm" -d 'Remove a skill and its screening record'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -l description -d 'What the skill does and when to use it (1-1024 characters)' -r
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -l body -d 'Read the markdown body from a file ("-" for stdin)' -r
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -s h -l help -d 'Print help'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand new" -s V -l version -d 'Print version'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -l name -d 'Skill name (default: derived from the request)' -r
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -l accept-warnings -d 'Add the draft even when its screen warns'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand from-episode" -s V -l version -d 'Print version'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand lint" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand lint" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_using_subcommand lint" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand lint" -l strict -d 'Fail (conflict, exit 1) when there is any finding'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand lint" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand lint" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand lint" -s V -l version -d 'Print version'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -l strict -d 'Exit 1 (permission) when the verdict is fail'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -l accept-warnings -d 'Record a `warn` verdict as accepted (skills of the home only)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -l deep -d 'Also ask the model route for a judgement (it can only raise the verdict)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand screen" -s V -l version -d 'Print version'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -l name -d 'Install under this name (default: the front matter\'s name)' -r
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -l accept-warnings -d 'Install even when the screen warns'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand install" -s V -l version -d 'Print version'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_using_subcommand list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand list" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand list" -s h -l help -d 'Print help'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand list" -s V -l version -d 'Print version'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_using_subcommand show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand show" -l findings -d 'Also screen the files as they are now and list the findings (records nothing)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand show" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand show" -s h -l help -d 'Print help'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand show" -s V -l version -d 'Print version'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c skill_forge -n "__fish_skill_forge_using_subcommand rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skill_forge -n "__fish_skill_forge_using_subcommand rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand rm" -s h -l help -d 'Print help'
complete -c skill_forge -n "__fish_skill_forge_using_subcommand rm" -s V -l version -d 'Print version'
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_evolve_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_evolve_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_evolve_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_evolve_using_subcommand
    set -l cmd (__fish_evolve_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c evolve -n "__fish_evolve_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c evolve -n "__fish_evolve_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c evolve -n "__fish_evolve_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c evolve -n "__fish_evolve_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c evolve -n "__fish_evolve_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c evolve -n "__fish_evolve_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c evolve -n "__fish_evolve_needs_command" -s V -l version -d 'Print version'
complete -c evolve -n "__fish_evolve_needs_command" -f -a "run" -d 'Mine the episodes not yet mined into proposals'
complete -c evolve -n "__fish_evolve_needs_command" -f -a "list" -d 'List proposals, newest run first'
complete -c evolve -n "__fish_evolve_needs_command" -f -a "show" -d 'Show a run (its id) or a proposal (its p-… id) in full'
complete -c evolve -n "__fish_evolve_needs_command" -f -a "apply" -d 'Apply proposals: install the skill, add the preference to PROFILE.md, or write the knowledge note'
complete -c evolve -n "__fish_evolve_needs_command" -f -a "reject" -d 'Reject proposals (they are never proposed again)'
complete -c evolve -n "__fish_evolve_using_subcommand run" -l since -d 'Mine episodes started on or after DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default: after the high-water mark)' -r
complete -c evolve -n "__fish_evolve_using_subcommand run" -l session -d 'Mine only these sessions (repeatable)' -r
complete -c evolve -n "__fish_evolve_using_subcommand run" -l max-episodes -d 'Stop after mining N episodes (default: config evolve.max_episodes)' -r
complete -c evolve -n "__fish_evolve_using_subcommand run" -l max-seconds -d 'Stop after S seconds (default: config evolve.max_seconds)' -r
complete -c evolve -n "__fish_evolve_using_subcommand run" -l max-model-calls -d 'Stop after N model calls (default: config evolve.max_model_calls)' -r
complete -c evolve -n "__fish_evolve_using_subcommand run" -l max-cost-usd -d 'Stop when the estimated model cost reaches X US dollars (default: config evolve.max_cost_usd)' -r
complete -c evolve -n "__fish_evolve_using_subcommand run" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c evolve -n "__fish_evolve_using_subcommand run" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c evolve -n "__fish_evolve_using_subcommand run" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c evolve -n "__fish_evolve_using_subcommand run" -l dry-run -d 'Mine and report, but write nothing (no run folder, no state)'
complete -c evolve -n "__fish_evolve_using_subcommand run" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c evolve -n "__fish_evolve_using_subcommand run" -s v -l verbose -d 'Log what happens to stderr'
complete -c evolve -n "__fish_evolve_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c evolve -n "__fish_evolve_using_subcommand run" -s V -l version -d 'Print version'
complete -c evolve -n "__fish_evolve_using_subcommand list" -l status -d 'Only proposals with this status' -r -f -a "pending\t''
applied\t''
rejected\t''"
complete -c evolve -n "__fish_evolve_using_subcommand list" -l limit -d 'At most N proposals (a page; meta.matched says how many there are)' -r
complete -c evolve -n "__fish_evolve_using_subcommand list" -l offset -d 'Skip the first N proposals (with --limit: the next page)' -r
complete -c evolve -n "__fish_evolve_using_subcommand list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c evolve -n "__fish_evolve_using_subcommand list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c evolve -n "__fish_evolve_using_subcommand list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c evolve -n "__fish_evolve_using_subcommand list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c evolve -n "__fish_evolve_using_subcommand list" -s v -l verbose -d 'Log what happens to stderr'
complete -c evolve -n "__fish_evolve_using_subcommand list" -s h -l help -d 'Print help'
complete -c evolve -n "__fish_evolve_using_subcommand list" -s V -l version -d 'Print version'
complete -c evolve -n "__fish_evolve_using_subcommand show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c evolve -n "__fish_evolve_using_subcommand show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c evolve -n "__fish_evolve_using_subcommand show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c evolve -n "__fish_evolve_using_subcommand show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c evolve -n "__fish_evolve_using_subcommand show" -s v -l verbose -d 'Log what happens to stderr'
complete -c evolve -n "__fish_evolve_using_subcommand show" -s h -l help -d 'Print help'
complete -c evolve -n "__fish_evolve_using_subcommand show" -s V -l version -d 'Print version'
complete -c evolve -n "__fish_evolve_using_subcommand apply" -l expect-plan -d 'Refuse (conflict) unless the proposals and the files they write are as the `--dry-run` that printed this fingerprint saw them' -r
complete -c evolve -n "__fish_evolve_using_subcommand apply" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c evolve -n "__fish_evolve_using_subcommand apply" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c evolve -n "__fish_evolve_using_subcommand apply" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c evolve -n "__fish_evolve_using_subcommand apply" -l accept-warnings -d 'Apply a skill, preference or note whose screen verdict is `warn`'
complete -c evolve -n "__fish_evolve_using_subcommand apply" -l dry-run -d 'Check the proposals and show exactly what applying them would write (a diff per file) and the plan\'s fingerprint; write nothing'
complete -c evolve -n "__fish_evolve_using_subcommand apply" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c evolve -n "__fish_evolve_using_subcommand apply" -s v -l verbose -d 'Log what happens to stderr'
complete -c evolve -n "__fish_evolve_using_subcommand apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c evolve -n "__fish_evolve_using_subcommand apply" -s V -l version -d 'Print version'
complete -c evolve -n "__fish_evolve_using_subcommand reject" -l reason -d 'Why (kept with the proposal)' -r
complete -c evolve -n "__fish_evolve_using_subcommand reject" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c evolve -n "__fish_evolve_using_subcommand reject" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c evolve -n "__fish_evolve_using_subcommand reject" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c evolve -n "__fish_evolve_using_subcommand reject" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c evolve -n "__fish_evolve_using_subcommand reject" -s v -l verbose -d 'Log what happens to stderr'
complete -c evolve -n "__fish_evolve_using_subcommand reject" -s h -l help -d 'Print help'
complete -c evolve -n "__fish_evolve_using_subcommand reject" -s V -l version -d 'Print version'
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_persona_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_persona_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_persona_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_persona_using_subcommand
    set -l cmd (__fish_persona_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c persona -n "__fish_persona_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c persona -n "__fish_persona_needs_command" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_needs_command" -f -a "list" -d 'List the personas (* marks the active one)'
complete -c persona -n "__fish_persona_needs_command" -f -a "show" -d 'Show a persona: traits, body, rev (default: the active one)'
complete -c persona -n "__fish_persona_needs_command" -f -a "create" -d 'Create a persona (the first one becomes active)'
complete -c persona -n "__fish_persona_needs_command" -f -a "set" -d 'Set traits (and the text) of a persona: one new revision'
complete -c persona -n "__fish_persona_needs_command" -f -a "unset" -d 'Remove traits of a persona: one new revision'
complete -c persona -n "__fish_persona_needs_command" -f -a "use" -d 'Make a persona the active one (persona/ACTIVE)'
complete -c persona -n "__fish_persona_needs_command" -f -a "render" -d 'Print the markdown block to splice into a system prompt'
complete -c persona -n "__fish_persona_needs_command" -f -a "history" -d 'List the revisions of a persona, newest first'
complete -c persona -n "__fish_persona_needs_command" -f -a "revert" -d 'Restore an earlier revision\'s traits and text, as a new revision'
complete -c persona -n "__fish_persona_using_subcommand list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand list" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand list" -s h -l help -d 'Print help'
complete -c persona -n "__fish_persona_using_subcommand list" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_using_subcommand show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand show" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand show" -s h -l help -d 'Print help'
complete -c persona -n "__fish_persona_using_subcommand show" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_using_subcommand create" -l from -d 'Start from another persona\'s traits and text' -r
complete -c persona -n "__fish_persona_using_subcommand create" -l trait -d 'A trait, KEY=VALUE (repeatable): tone, verbosity, language or any key' -r
complete -c persona -n "__fish_persona_using_subcommand create" -l text -d 'Read the free-text body from a file ("-" for stdin)' -r
complete -c persona -n "__fish_persona_using_subcommand create" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand create" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand create" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand create" -l accept-warnings -d 'Write it even when the screen of the persona\'s text warns'
complete -c persona -n "__fish_persona_using_subcommand create" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand create" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand create" -s h -l help -d 'Print help'
complete -c persona -n "__fish_persona_using_subcommand create" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_using_subcommand set" -l text -d 'Replace the free-text body with a file\'s ("-" for stdin)' -r
complete -c persona -n "__fish_persona_using_subcommand set" -l expect-version -d 'Refuse (conflict) unless the persona is at this rev' -r
complete -c persona -n "__fish_persona_using_subcommand set" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand set" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand set" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand set" -l accept-warnings -d 'Write it even when the screen of the persona\'s text warns'
complete -c persona -n "__fish_persona_using_subcommand set" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand set" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c persona -n "__fish_persona_using_subcommand set" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_using_subcommand unset" -l expect-version -d 'Refuse (conflict) unless the persona is at this rev' -r
complete -c persona -n "__fish_persona_using_subcommand unset" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand unset" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand unset" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand unset" -l accept-warnings -d 'Write it even when the screen of the persona\'s text warns'
complete -c persona -n "__fish_persona_using_subcommand unset" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand unset" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand unset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c persona -n "__fish_persona_using_subcommand unset" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_using_subcommand use" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand use" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand use" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand use" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand use" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand use" -s h -l help -d 'Print help'
complete -c persona -n "__fish_persona_using_subcommand use" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_using_subcommand render" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand render" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand render" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand render" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand render" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c persona -n "__fish_persona_using_subcommand render" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_using_subcommand history" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand history" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand history" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand history" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand history" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand history" -s h -l help -d 'Print help'
complete -c persona -n "__fish_persona_using_subcommand history" -s V -l version -d 'Print version'
complete -c persona -n "__fish_persona_using_subcommand revert" -l expect-version -d 'Refuse (conflict) unless the persona is at this rev' -r
complete -c persona -n "__fish_persona_using_subcommand revert" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c persona -n "__fish_persona_using_subcommand revert" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c persona -n "__fish_persona_using_subcommand revert" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c persona -n "__fish_persona_using_subcommand revert" -l accept-warnings -d 'Write it even when the screen of the persona\'s text warns'
complete -c persona -n "__fish_persona_using_subcommand revert" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c persona -n "__fish_persona_using_subcommand revert" -s v -l verbose -d 'Log what happens to stderr'
complete -c persona -n "__fish_persona_using_subcommand revert" -s h -l help -d 'Print help'
complete -c persona -n "__fish_persona_using_subcommand revert" -s V -l version -d 'Print version'
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_proactive_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_proactive_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_proactive_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_proactive_using_subcommand
    set -l cmd (__fish_proactive_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c proactive -n "__fish_proactive_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c proactive -n "__fish_proactive_needs_command" -s V -l version -d 'Print version'
complete -c proactive -n "__fish_proactive_needs_command" -f -a "add" -d 'Add an item'
complete -c proactive -n "__fish_proactive_needs_command" -f -a "list" -d 'List items: open and snoozed ones (not expired, dismissed or done)'
complete -c proactive -n "__fish_proactive_needs_command" -f -a "due" -d 'Items to act on: due soon, or valid without a due time'
complete -c proactive -n "__fish_proactive_needs_command" -f -a "dismiss" -d 'Dismiss items: not needed after all (they are never shown again)'
complete -c proactive -n "__fish_proactive_needs_command" -f -a "done" -d 'Mark items done (they are never shown again)'
complete -c proactive -n "__fish_proactive_needs_command" -f -a "snooze" -d 'Hide an item until WHEN; it comes back then'
complete -c proactive -n "__fish_proactive_needs_command" -f -a "scan" -d 'Suggestions from the home, each with the command that resolves it'
complete -c proactive -n "__fish_proactive_needs_command" -f -a "extract" -d 'Foresight from recent episodes: commitments and deadlines become items'
complete -c proactive -n "__fish_proactive_using_subcommand add" -l from -d 'When the item becomes valid (default: now)' -r
complete -c proactive -n "__fish_proactive_using_subcommand add" -l until -d 'When it stops being valid (default: --due, else 7 days after --from)' -r
complete -c proactive -n "__fish_proactive_using_subcommand add" -l due -d 'When it is due' -r
complete -c proactive -n "__fish_proactive_using_subcommand add" -l tag -d 'A tag (repeat for more)' -r
complete -c proactive -n "__fish_proactive_using_subcommand add" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_using_subcommand add" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_using_subcommand add" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_using_subcommand add" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_using_subcommand add" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_using_subcommand add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c proactive -n "__fish_proactive_using_subcommand add" -s V -l version -d 'Print version'
complete -c proactive -n "__fish_proactive_using_subcommand list" -l limit -d 'At most N items (a page; meta.matched says how many there are)' -r
complete -c proactive -n "__fish_proactive_using_subcommand list" -l offset -d 'Skip the first N items (with --limit: the next page)' -r
complete -c proactive -n "__fish_proactive_using_subcommand list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_using_subcommand list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_using_subcommand list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_using_subcommand list" -l all -d 'Every item, whatever its state'
complete -c proactive -n "__fish_proactive_using_subcommand list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_using_subcommand list" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_using_subcommand list" -s h -l help -d 'Print help'
complete -c proactive -n "__fish_proactive_using_subcommand list" -s V -l version -d 'Print version'
complete -c proactive -n "__fish_proactive_using_subcommand due" -l at -d 'The instant to look from (default: now)' -r
complete -c proactive -n "__fish_proactive_using_subcommand due" -l within -d 'How far ahead: N and a unit, m h d or w (default: 1d)' -r
complete -c proactive -n "__fish_proactive_using_subcommand due" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_using_subcommand due" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_using_subcommand due" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_using_subcommand due" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_using_subcommand due" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_using_subcommand due" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c proactive -n "__fish_proactive_using_subcommand due" -s V -l version -d 'Print version'
complete -c proactive -n "__fish_proactive_using_subcommand dismiss" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_using_subcommand dismiss" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_using_subcommand dismiss" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_using_subcommand dismiss" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_using_subcommand dismiss" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_using_subcommand dismiss" -s h -l help -d 'Print help'
complete -c proactive -n "__fish_proactive_using_subcommand dismiss" -s V -l version -d 'Print version'
complete -c proactive -n "__fish_proactive_using_subcommand done" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_using_subcommand done" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_using_subcommand done" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_using_subcommand done" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_using_subcommand done" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_using_subcommand done" -s h -l help -d 'Print help'
complete -c proactive -n "__fish_proactive_using_subcommand done" -s V -l version -d 'Print version'
complete -c proactive -n "__fish_proactive_using_subcommand snooze" -l until -d 'When the item comes back' -r
complete -c proactive -n "__fish_proactive_using_subcommand snooze" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_using_subcommand snooze" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_using_subcommand snooze" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_using_subcommand snooze" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_using_subcommand snooze" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_using_subcommand snooze" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c proactive -n "__fish_proactive_using_subcommand snooze" -s V -l version -d 'Print version'
complete -c proactive -n "__fish_proactive_using_subcommand scan" -l stale-days -d 'An in-progress plan step untouched this many days is stale (default: config proactive.stale_days, 3)' -r
complete -c proactive -n "__fish_proactive_using_subcommand scan" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_using_subcommand scan" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_using_subcommand scan" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_using_subcommand scan" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_using_subcommand scan" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_using_subcommand scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c proactive -n "__fish_proactive_using_subcommand scan" -s V -l version -d 'Print version'
complete -c proactive -n "__fish_proactive_using_subcommand extract" -l since -d 'Episodes since DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default: after the last extraction)' -r
complete -c proactive -n "__fish_proactive_using_subcommand extract" -l session -d 'Only these sessions (repeatable)' -r
complete -c proactive -n "__fish_proactive_using_subcommand extract" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c proactive -n "__fish_proactive_using_subcommand extract" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c proactive -n "__fish_proactive_using_subcommand extract" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c proactive -n "__fish_proactive_using_subcommand extract" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c proactive -n "__fish_proactive_using_subcommand extract" -s v -l verbose -d 'Log what happens to stderr'
complete -c proactive -n "__fish_proactive_using_subcommand extract" -s h -l help -d 'Print help'
complete -c proactive -n "__fish_proactive_using_subcommand extract" -s V -l version -d 'Print version'
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_sync_global_optspecs
    string join \n format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_sync_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_sync_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_sync_using_subcommand
    set -l cmd (__fish_sync_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c sync -n "__fish_sync_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sync -n "__fish_sync_needs_command" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_needs_command" -f -a "init" -d 'Start keeping the home\'s history (and take the remote\'s, when it has one)'
complete -c sync -n "__fish_sync_needs_command" -f -a "remote" -d 'Show, set or remove the remote'
complete -c sync -n "__fish_sync_needs_command" -f -a "status" -d 'What is unsynced: commits ahead/behind the remote, changed files'
complete -c sync -n "__fish_sync_needs_command" -f -a "pull" -d 'Take the remote\'s changes into the home (commits local changes first)'
complete -c sync -n "__fish_sync_needs_command" -f -a "push" -d 'Send the home\'s changes to the remote (integrating the remote\'s first)'
complete -c sync -n "__fish_sync_needs_command" -f -a "now" -d 'Pull, then push: the one command to run after a session'
complete -c sync -n "__fish_sync_needs_command" -f -a "abort" -d 'Drop a pull that stopped part-way and keeps failing to finish'
complete -c sync -n "__fish_sync_needs_command" -f -a "hosts" -d 'Detect host agents; install or remove memory_mcp and the screened skills'
complete -c sync -n "__fish_sync_using_subcommand init" -l remote -d 'The remote to sync with (https:// or file://; credentials come from git credential helpers or GIT_ASKPASS, never from the URL)' -r
complete -c sync -n "__fish_sync_using_subcommand init" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand init" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand init" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand init" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand init" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand init" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand init" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -f -a "show" -d 'Show the remote (the default)'
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -f -a "set" -d 'Set the remote'
complete -c sync -n "__fish_sync_using_subcommand remote; and not __fish_seen_subcommand_from show set rm" -f -a "rm" -d 'Forget the remote (the history stays)'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from show" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from show" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from show" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from set" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from set" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from set" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from set" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from rm" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from rm" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from rm" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand remote; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand status" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand status" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand status" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand status" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand status" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sync -n "__fish_sync_using_subcommand status" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand pull" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand pull" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand pull" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand pull" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand pull" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand pull" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sync -n "__fish_sync_using_subcommand pull" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand push" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand push" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand push" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand push" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand push" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand push" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sync -n "__fish_sync_using_subcommand push" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand now" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand now" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand now" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand now" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand now" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand now" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand now" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand abort" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand abort" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand abort" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand abort" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand abort" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand abort" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sync -n "__fish_sync_using_subcommand abort" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -l follow-symlinks -d 'Write a host\'s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`'
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -f -a "list" -d 'List the hosts, what is detected and what is installed (the default)'
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -f -a "install" -d 'Register memory_mcp in each host\'s config and export the screened skills'
complete -c sync -n "__fish_sync_using_subcommand hosts; and not __fish_seen_subcommand_from list install remove" -f -a "remove" -d 'Remove what agentbox wrote (and only that) from each host'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from list" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from list" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from list" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from list" -l follow-symlinks -d 'Write a host\'s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l scope -d 'project: the config files beside the home (the default); user: under $HOME' -r -f -a "project\t''
user\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l url -d 'Register the memory_mcp --http the user keeps running at URL (e.g. http://127.0.0.1:7411/mcp) instead of a command the host starts; not for zed or odek' -r
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l token-env -d 'With --url: the environment variable the host reads the bearer token from when it connects (default AGENTBOX_MCP_TOKEN); the token itself is never written' -r
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l all -d 'Every detected host'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l no-skills -d 'Register memory_mcp only; export no skills'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -l follow-symlinks -d 'Write a host\'s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -l scope -d 'Only this scope (default: every scope agentbox installed into)' -r -f -a "project\t''
user\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -l all -d 'Every host agentbox installed into'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -l follow-symlinks -d 'Write a host\'s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'Log what happens to stderr'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from install" -f -a "claude-code codex cursor gemini vscode zed odek"
complete -c sync -n "__fish_sync_using_subcommand hosts; and __fish_seen_subcommand_from remove" -f -a "claude-code codex cursor gemini vscode zed odek"
# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_memory_mcp_global_optspecs
    string join \n http= format= home= q/quiet v/verbose color= h/help V/version
end

function __fish_memory_mcp_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_memory_mcp_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_memory_mcp_using_subcommand
    set -l cmd (__fish_memory_mcp_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -l http -d 'Serve Streamable HTTP at ADDR (HOST:PORT) instead of stdio' -r
complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -s v -l verbose -d 'Log what happens to stderr'
complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -s V -l version -d 'Print version'
complete -c memory_mcp -n "__fish_memory_mcp_needs_command" -f -a "token" -d 'Make the bearer token --http requires (kept in the home, never printed)'
complete -c memory_mcp -n "__fish_memory_mcp_using_subcommand token" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c memory_mcp -n "__fish_memory_mcp_using_subcommand token" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c memory_mcp -n "__fish_memory_mcp_using_subcommand token" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
complete -c memory_mcp -n "__fish_memory_mcp_using_subcommand token" -l new -d 'Replace the existing token (clients holding the old one are refused)'
complete -c memory_mcp -n "__fish_memory_mcp_using_subcommand token" -s q -l quiet -d 'Print nothing on success in text mode (json still prints its envelope)'
complete -c memory_mcp -n "__fish_memory_mcp_using_subcommand token" -s v -l verbose -d 'Log what happens to stderr'
complete -c memory_mcp -n "__fish_memory_mcp_using_subcommand token" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c memory_mcp -n "__fish_memory_mcp_using_subcommand token" -s V -l version -d 'Print version'
