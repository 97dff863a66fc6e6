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
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "init" -d 'Create an agent home (.agent/) with its config, folders and tool links'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "link" -d 'Re-create or repair the links in .agent/tools/ (idempotent)'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "doctor" -d 'Check the home: config, folders, links, documents'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "reindex" -d 'Rebuild the search index from the files of the home'
complete -c agentbox -n "__fish_agentbox_needs_command" -f -a "completions" -d 'Print a shell completion script'
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
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -l format -d 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]' -r -f -a "auto\t''
json\t''
text\t''"
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -l home -d 'The agent home to use (default: the link\'s home, else the nearest .agent/) [env: AGENTBOX_HOME]' -r -F
complete -c agentbox -n "__fish_agentbox_using_subcommand init" -l color -d 'Colour text output: auto respects NO_COLOR and terminals' -r -f -a "auto\t''
always\t''
never\t''"
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
