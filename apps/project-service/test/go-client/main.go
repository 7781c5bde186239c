// A Go client of project-service, as one is written with only the standard
// library: structs with pointer fields for optional values, tagged with the
// JSON names for encoding/json and encoding/xml; encoding/gob matches fields
// by their Go names. The service's tests run it to encode every request
// representation and decode every response representation.
//
//	go run . encode <Representation> xml|gob   < JSON  > body
//	go run . decode <Representation> xml|gob   < body  > JSON (zero values filled in)
package main

import (
	"encoding/gob"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
)

type UserInfo struct {
	Name     *string `json:"name,omitempty" xml:"name,omitempty"`
	Email    *string `json:"email,omitempty" xml:"email,omitempty"`
	Username *string `json:"username,omitempty" xml:"username,omitempty"`
	Avatar   *string `json:"avatar,omitempty" xml:"avatar,omitempty"`
}

type ProjectBase struct {
	UID                        *string  `json:"uid,omitempty" xml:"uid,omitempty"`
	Slug                       *string  `json:"slug,omitempty" xml:"slug,omitempty"`
	Name                       *string  `json:"name,omitempty" xml:"name,omitempty"`
	Description                *string  `json:"description,omitempty" xml:"description,omitempty"`
	ParentUID                  *string  `json:"parent_uid,omitempty" xml:"parent_uid,omitempty"`
	Public                     *bool    `json:"public,omitempty" xml:"public,omitempty"`
	IsFoundation               *bool    `json:"is_foundation,omitempty" xml:"is_foundation,omitempty"`
	AutojoinEnabled            *bool    `json:"autojoin_enabled,omitempty" xml:"autojoin_enabled,omitempty"`
	Category                   *string  `json:"category,omitempty" xml:"category,omitempty"`
	Stage                      *string  `json:"stage,omitempty" xml:"stage,omitempty"`
	LegalEntityType            *string  `json:"legal_entity_type,omitempty" xml:"legal_entity_type,omitempty"`
	LegalEntityName            *string  `json:"legal_entity_name,omitempty" xml:"legal_entity_name,omitempty"`
	LegalParentUID             *string  `json:"legal_parent_uid,omitempty" xml:"legal_parent_uid,omitempty"`
	FundingModel               []string `json:"funding_model,omitempty" xml:"funding_model,omitempty"`
	CharterURL                 *string  `json:"charter_url,omitempty" xml:"charter_url,omitempty"`
	EntityFormationDocumentURL *string  `json:"entity_formation_document_url,omitempty" xml:"entity_formation_document_url,omitempty"`
	LogoURL                    *string  `json:"logo_url,omitempty" xml:"logo_url,omitempty"`
	RepositoryURL              *string  `json:"repository_url,omitempty" xml:"repository_url,omitempty"`
	WebsiteURL                 *string  `json:"website_url,omitempty" xml:"website_url,omitempty"`
	FormationDate              *string  `json:"formation_date,omitempty" xml:"formation_date,omitempty"`
	EntityDissolutionDate      *string  `json:"entity_dissolution_date,omitempty" xml:"entity_dissolution_date,omitempty"`
	CreatedAt                  *string  `json:"created_at,omitempty" xml:"created_at,omitempty"`
	UpdatedAt                  *string  `json:"updated_at,omitempty" xml:"updated_at,omitempty"`
}

type ProjectSettings struct {
	UID                 *string     `json:"uid,omitempty" xml:"uid,omitempty"`
	AnnouncementDate    *string     `json:"announcement_date,omitempty" xml:"announcement_date,omitempty"`
	MissionStatement    *string     `json:"mission_statement,omitempty" xml:"mission_statement,omitempty"`
	Writers             []*UserInfo `json:"writers,omitempty" xml:"writers,omitempty"`
	Auditors            []*UserInfo `json:"auditors,omitempty" xml:"auditors,omitempty"`
	MeetingCoordinators []*UserInfo `json:"meeting_coordinators,omitempty" xml:"meeting_coordinators,omitempty"`
	CreatedAt           *string     `json:"created_at,omitempty" xml:"created_at,omitempty"`
	UpdatedAt           *string     `json:"updated_at,omitempty" xml:"updated_at,omitempty"`
}

type ProjectFull struct {
	UID                        *string     `json:"uid,omitempty" xml:"uid,omitempty"`
	Slug                       *string     `json:"slug,omitempty" xml:"slug,omitempty"`
	Name                       *string     `json:"name,omitempty" xml:"name,omitempty"`
	Description                *string     `json:"description,omitempty" xml:"description,omitempty"`
	ParentUID                  *string     `json:"parent_uid,omitempty" xml:"parent_uid,omitempty"`
	Public                     *bool       `json:"public,omitempty" xml:"public,omitempty"`
	IsFoundation               *bool       `json:"is_foundation,omitempty" xml:"is_foundation,omitempty"`
	AutojoinEnabled            *bool       `json:"autojoin_enabled,omitempty" xml:"autojoin_enabled,omitempty"`
	Category                   *string     `json:"category,omitempty" xml:"category,omitempty"`
	Stage                      *string     `json:"stage,omitempty" xml:"stage,omitempty"`
	LegalEntityType            *string     `json:"legal_entity_type,omitempty" xml:"legal_entity_type,omitempty"`
	LegalEntityName            *string     `json:"legal_entity_name,omitempty" xml:"legal_entity_name,omitempty"`
	LegalParentUID             *string     `json:"legal_parent_uid,omitempty" xml:"legal_parent_uid,omitempty"`
	FundingModel               []string    `json:"funding_model,omitempty" xml:"funding_model,omitempty"`
	CharterURL                 *string     `json:"charter_url,omitempty" xml:"charter_url,omitempty"`
	EntityFormationDocumentURL *string     `json:"entity_formation_document_url,omitempty" xml:"entity_formation_document_url,omitempty"`
	LogoURL                    *string     `json:"logo_url,omitempty" xml:"logo_url,omitempty"`
	RepositoryURL              *string     `json:"repository_url,omitempty" xml:"repository_url,omitempty"`
	WebsiteURL                 *string     `json:"website_url,omitempty" xml:"website_url,omitempty"`
	FormationDate              *string     `json:"formation_date,omitempty" xml:"formation_date,omitempty"`
	EntityDissolutionDate      *string     `json:"entity_dissolution_date,omitempty" xml:"entity_dissolution_date,omitempty"`
	AnnouncementDate           *string     `json:"announcement_date,omitempty" xml:"announcement_date,omitempty"`
	MissionStatement           *string     `json:"mission_statement,omitempty" xml:"mission_statement,omitempty"`
	Writers                    []*UserInfo `json:"writers,omitempty" xml:"writers,omitempty"`
	Auditors                   []*UserInfo `json:"auditors,omitempty" xml:"auditors,omitempty"`
	MeetingCoordinators        []*UserInfo `json:"meeting_coordinators,omitempty" xml:"meeting_coordinators,omitempty"`
	CreatedAt                  *string     `json:"created_at,omitempty" xml:"created_at,omitempty"`
	UpdatedAt                  *string     `json:"updated_at,omitempty" xml:"updated_at,omitempty"`
}

type Projects struct {
	Projects      []*ProjectFull `json:"projects,omitempty" xml:"projects,omitempty"`
	NextPageToken *string        `json:"next_page_token,omitempty" xml:"next_page_token,omitempty"`
}

type Error struct {
	Code    *string `json:"code,omitempty" xml:"code,omitempty"`
	Message *string `json:"message,omitempty" xml:"message,omitempty"`
}

type CreateProjectRequest struct {
	Slug                       *string     `json:"slug,omitempty" xml:"slug,omitempty"`
	Name                       *string     `json:"name,omitempty" xml:"name,omitempty"`
	Description                *string     `json:"description,omitempty" xml:"description,omitempty"`
	ParentUID                  *string     `json:"parent_uid,omitempty" xml:"parent_uid,omitempty"`
	Public                     *bool       `json:"public,omitempty" xml:"public,omitempty"`
	IsFoundation               *bool       `json:"is_foundation,omitempty" xml:"is_foundation,omitempty"`
	AutojoinEnabled            *bool       `json:"autojoin_enabled,omitempty" xml:"autojoin_enabled,omitempty"`
	Category                   *string     `json:"category,omitempty" xml:"category,omitempty"`
	Stage                      *string     `json:"stage,omitempty" xml:"stage,omitempty"`
	LegalEntityType            *string     `json:"legal_entity_type,omitempty" xml:"legal_entity_type,omitempty"`
	LegalEntityName            *string     `json:"legal_entity_name,omitempty" xml:"legal_entity_name,omitempty"`
	LegalParentUID             *string     `json:"legal_parent_uid,omitempty" xml:"legal_parent_uid,omitempty"`
	FundingModel               []string    `json:"funding_model,omitempty" xml:"funding_model,omitempty"`
	CharterURL                 *string     `json:"charter_url,omitempty" xml:"charter_url,omitempty"`
	EntityFormationDocumentURL *string     `json:"entity_formation_document_url,omitempty" xml:"entity_formation_document_url,omitempty"`
	LogoURL                    *string     `json:"logo_url,omitempty" xml:"logo_url,omitempty"`
	RepositoryURL              *string     `json:"repository_url,omitempty" xml:"repository_url,omitempty"`
	WebsiteURL                 *string     `json:"website_url,omitempty" xml:"website_url,omitempty"`
	FormationDate              *string     `json:"formation_date,omitempty" xml:"formation_date,omitempty"`
	EntityDissolutionDate      *string     `json:"entity_dissolution_date,omitempty" xml:"entity_dissolution_date,omitempty"`
	AnnouncementDate           *string     `json:"announcement_date,omitempty" xml:"announcement_date,omitempty"`
	MissionStatement           *string     `json:"mission_statement,omitempty" xml:"mission_statement,omitempty"`
	Writers                    []*UserInfo `json:"writers,omitempty" xml:"writers,omitempty"`
	Auditors                   []*UserInfo `json:"auditors,omitempty" xml:"auditors,omitempty"`
	MeetingCoordinators        []*UserInfo `json:"meeting_coordinators,omitempty" xml:"meeting_coordinators,omitempty"`
}

type UpdateProjectBaseRequest struct {
	Slug                       *string  `json:"slug,omitempty" xml:"slug,omitempty"`
	Name                       *string  `json:"name,omitempty" xml:"name,omitempty"`
	Description                *string  `json:"description,omitempty" xml:"description,omitempty"`
	ParentUID                  *string  `json:"parent_uid,omitempty" xml:"parent_uid,omitempty"`
	Public                     *bool    `json:"public,omitempty" xml:"public,omitempty"`
	IsFoundation               *bool    `json:"is_foundation,omitempty" xml:"is_foundation,omitempty"`
	AutojoinEnabled            *bool    `json:"autojoin_enabled,omitempty" xml:"autojoin_enabled,omitempty"`
	Category                   *string  `json:"category,omitempty" xml:"category,omitempty"`
	Stage                      *string  `json:"stage,omitempty" xml:"stage,omitempty"`
	LegalEntityType            *string  `json:"legal_entity_type,omitempty" xml:"legal_entity_type,omitempty"`
	LegalEntityName            *string  `json:"legal_entity_name,omitempty" xml:"legal_entity_name,omitempty"`
	LegalParentUID             *string  `json:"legal_parent_uid,omitempty" xml:"legal_parent_uid,omitempty"`
	FundingModel               []string `json:"funding_model,omitempty" xml:"funding_model,omitempty"`
	CharterURL                 *string  `json:"charter_url,omitempty" xml:"charter_url,omitempty"`
	EntityFormationDocumentURL *string  `json:"entity_formation_document_url,omitempty" xml:"entity_formation_document_url,omitempty"`
	LogoURL                    *string  `json:"logo_url,omitempty" xml:"logo_url,omitempty"`
	RepositoryURL              *string  `json:"repository_url,omitempty" xml:"repository_url,omitempty"`
	WebsiteURL                 *string  `json:"website_url,omitempty" xml:"website_url,omitempty"`
	FormationDate              *string  `json:"formation_date,omitempty" xml:"formation_date,omitempty"`
	EntityDissolutionDate      *string  `json:"entity_dissolution_date,omitempty" xml:"entity_dissolution_date,omitempty"`
}

type UpdateProjectSettingsRequest struct {
	AnnouncementDate    *string     `json:"announcement_date,omitempty" xml:"announcement_date,omitempty"`
	MissionStatement    *string     `json:"mission_statement,omitempty" xml:"mission_statement,omitempty"`
	Writers             []*UserInfo `json:"writers,omitempty" xml:"writers,omitempty"`
	Auditors            []*UserInfo `json:"auditors,omitempty" xml:"auditors,omitempty"`
	MeetingCoordinators []*UserInfo `json:"meeting_coordinators,omitempty" xml:"meeting_coordinators,omitempty"`
}

func newRepresentation(name string) (interface{}, error) {
	switch name {
	case "UserInfo":
		return &UserInfo{}, nil
	case "ProjectBase":
		return &ProjectBase{}, nil
	case "ProjectSettings":
		return &ProjectSettings{}, nil
	case "ProjectFull":
		return &ProjectFull{}, nil
	case "Projects":
		return &Projects{}, nil
	case "Error":
		return &Error{}, nil
	case "CreateProjectRequest":
		return &CreateProjectRequest{}, nil
	case "UpdateProjectBaseRequest":
		return &UpdateProjectBaseRequest{}, nil
	case "UpdateProjectSettingsRequest":
		return &UpdateProjectSettingsRequest{}, nil
	}
	return nil, fmt.Errorf("unknown representation %q", name)
}

// filled turns a decoded struct into JSON terms with every field present:
// nil pointers and slices become their zero values, as the service's JSON has them.
func filled(value reflect.Value) interface{} {
	switch value.Kind() {
	case reflect.Ptr:
		if value.IsNil() {
			return filled(reflect.Zero(value.Type().Elem()))
		}
		return filled(value.Elem())
	case reflect.Slice:
		items := make([]interface{}, value.Len())
		for i := range items {
			items[i] = filled(value.Index(i))
		}
		return items
	case reflect.Struct:
		fields := map[string]interface{}{}
		for i := 0; i < value.NumField(); i++ {
			name := strings.Split(value.Type().Field(i).Tag.Get("json"), ",")[0]
			fields[name] = filled(value.Field(i))
		}
		return fields
	default:
		return value.Interface()
	}
}

func run(args []string, in io.Reader, out io.Writer) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: encode|decode <Representation> xml|gob")
	}
	value, err := newRepresentation(args[1])
	if err != nil {
		return err
	}
	switch args[0] + " " + args[2] {
	case "encode xml", "encode gob":
		if err := json.NewDecoder(in).Decode(value); err != nil {
			return err
		}
		if args[2] == "gob" {
			return gob.NewEncoder(out).Encode(value)
		}
		return xml.NewEncoder(out).Encode(value)
	case "decode xml", "decode gob":
		if args[2] == "gob" {
			err = gob.NewDecoder(in).Decode(value)
		} else {
			err = xml.NewDecoder(in).Decode(value)
		}
		if err != nil {
			return err
		}
		return json.NewEncoder(out).Encode(filled(reflect.ValueOf(value)))
	}
	return fmt.Errorf("unknown command %q", strings.Join(args, " "))
}

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
