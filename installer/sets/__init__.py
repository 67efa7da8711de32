"""What a set holds, by pi's package rules: resources, manifests, patterns."""
