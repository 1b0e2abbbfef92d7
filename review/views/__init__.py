"""Views, one module per page or concern; thin: access check, a selector or a service, a template."""
