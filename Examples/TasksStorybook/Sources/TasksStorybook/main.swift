import PropsCatalog
import StorybookCLI

StorybookCLI.main(catalog: try Catalog {
    taskRow
    forecastCard
})
